import CropPixels
import Foundation
import Testing

@testable import CropKit

/// The attention and entropy windows on real photos, against libvips 8.14's `smartcrop` (a reference, not ground
/// truth). Fixtures: 384-pixel copies of the test photos (`vips thumbnail … 384`) and the square crop libvips chose
/// on each (`vips smartcrop … --interesting attention|entropy`, located in the copy pixel for pixel).
@Suite("Smart windows against libvips smartcrop")
struct SmartCropReferenceTests {
    struct Reference: Decodable {
        var width: Int, height: Int
        var attention: [Double], entropy: [Double]
    }

    static let references: [String: Reference] = {
        let data = try! Data(contentsOf: Fixtures.root.appendingPathComponent("smartcrop/vips-smartcrop.json"))
        return try! JSONDecoder().decode([String: Reference].self, from: data)
    }()

    static func iou(_ a: Rect, _ b: Rect) -> Double {
        guard let both = a.intersection(b) else { return 0 }
        let shared = both.width * both.height
        return shared / (a.width * a.height + b.width * b.height - shared)
    }

    /// IoU of CropKit's square window with libvips' on every photo, by name.
    static func overlaps(_ measure: InterestMap.Measure) throws -> [String: Double] {
        var result: [String: Double] = [:]
        for (name, reference) in references {
            let image = try ImagePipeline().run(.file(Fixtures.path("smartcrop/\(name).jpg"))).pixels
            #expect(image.width == reference.width && image.height == reference.height, "\(name)")
            let side = Double(Swift.min(image.width, image.height))
            let (window, _) = try InterestMap(image, measure: measure).bestWindow(Size(width: side, height: side))
            let r = measure == .attention ? reference.attention : reference.entropy
            result[name] = iou(window, Rect(x: r[0], y: r[1], width: r[2], height: r[3]))
        }
        return result
    }

    @Test("the attention square overlaps libvips' attention square (IoU ≥ 0.5) on at least 7 of the 8 photos")
    func attention() throws {
        let overlaps = try Self.overlaps(.attention)
        #expect(overlaps.count == 8)
        #expect(overlaps.values.filter { $0 >= 0.5 }.count >= 7, "attention \(overlaps.sorted { $0.key < $1.key })")
    }

    @Test("the entropy square overlaps libvips' entropy square (IoU ≥ 0.5) on at least 7 of the 8 photos")
    func entropy() throws {
        let overlaps = try Self.overlaps(.entropy)
        #expect(overlaps.values.filter { $0 >= 0.5 }.count >= 7, "entropy \(overlaps.sorted { $0.key < $1.key })")
    }
}
