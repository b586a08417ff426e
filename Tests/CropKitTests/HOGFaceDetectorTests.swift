import CropAnalysis
import CropCodecs
import CropGeometry
import CropPixels
import Foundation
import Testing

@testable import CropKit

/// The face detector on real photos: against dlib's own output on the same pixels, and against the faces people
/// labelled. Fixtures: the four PASCAL VOC photos dlib ships in `examples/faces/` with its `training.xml` (18 faces,
/// 37–90 px), and `dlib-reference.txt`, the faces dlib 19.24 finds in them (`scripts/faces/make-references`).
@Suite("Face detection")
struct HOGFaceDetectorTests {
    static let photos = ["2007_007763", "2008_001009", "2008_001322", "2008_002079"]

    /// A labelled face: `training.xml`'s box.
    static let labels: [String: [Rect]] = {
        let xml = try! String(contentsOfFile: Fixtures.path("faces/training.xml"), encoding: .isoLatin1)
        var result: [String: [Rect]] = [:]
        var current = ""
        func attribute(_ name: String, _ line: Substring) -> Double? {
            guard let range = line.range(of: "\(name)='") else { return nil }
            return Double(line[range.upperBound...].prefix { $0 != "'" })
        }
        for line in xml.split(separator: "\n") {
            if let range = line.range(of: "file='") {
                current = String(line[range.upperBound...].prefix { $0 != "." })
            } else if line.contains("<box"), let top = attribute("top", line), let left = attribute("left", line),
                let width = attribute("width", line), let height = attribute("height", line)
            {
                result[current, default: []].append(Rect(x: left, y: top, width: width, height: height))
            }
        }
        return result
    }()

    static func decode(_ name: String) throws -> PixelBuffer {
        try ImagePipeline().run(.file(Fixtures.path("faces/\(name).jpg"))).pixels
    }

    static func iou(_ a: Rect, _ b: Rect) -> Double {
        guard let both = a.intersection(b) else { return 0 }
        let shared = both.width * both.height
        return shared / (a.width * a.height + b.width * b.height - shared)
    }

    @Test("the labels are the 18 faces training.xml lists")
    func labelsRead() {
        #expect(Self.labels.values.map(\.count).reduce(0, +) == 18)
        #expect(Self.labels.keys.sorted() == Self.photos)
    }

    @Test("on the same pixels the detector finds dlib's faces: the same boxes, confidence within 1e-4", arguments: photos)
    func matchesDlib(_ name: String) throws {
        let reference = try String(contentsOfFile: Fixtures.path("faces/dlib-reference.txt"), encoding: .utf8)
            .split(separator: "\n").map { $0.split(separator: " ") }.filter { $0[0] == name }
        let photo = RGBImage(try Self.decode(name))
        let enlarged = photo.dlibResized(width: photo.width * 2, height: photo.height * 2)
        let found = HOGFaceModel.frontal.detect(enlarged, threads: 2)
        #expect(found.count == reference.count, "\(found)")
        for expected in reference {
            let box = expected[1...4].map { Int(String($0))! }
            let confidence = Double(String(expected[5]))!
            let match = found.first { [$0.left, $0.top, $0.right, $0.bottom] == box }
            #expect(match != nil, "dlib's \(box) not found in \(found)")
            if let match {
                #expect(abs(match.confidence - confidence) < 1e-4, "\(box): \(match.confidence) against \(confidence)")
                #expect(match.filter == Int(String(expected[6]))!)
            }
        }
    }
}
