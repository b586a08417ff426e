import CropCodecs
import CropKit
import CropTestSupport
import Foundation
import Testing

@testable import CropServer

@Suite("cropkit serve: aspect crops placed by gravity or focus")
struct AspectCropServiceTests {
    @Test("without a size, aspect=W:H with gravity or focus places the full-resolution crop; misplaced gravity is 400")
    func placesTheAspectCrop() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cropkit-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // 900×300, the red disc (radius 30) at (700, 150): the centred square (300…600) misses it.
        let scene = try redDiscScene(x: 700, y: 150, width: 900, height: 300)
        try Data(ImageCodec.encode(scene, as: .jpeg, options: EncodeOptions(jpeg: JPEGEncodeOptions(quality: 92))))
            .write(to: folder.appendingPathComponent("disc.jpg"))
        let service = ImageService(
            configuration: ServiceConfiguration.forTests(root: try SourceFolder(root: folder.path), signer: nil))
        for (query, keepsDisc) in [
            ("aspect=1:1", false), ("aspect=1:1&gravity=attention", true),
            ("aspect=1:1&gravity=entropy", true), ("aspect=1:1&gravity=right", true),
            ("aspect=1:1&gravity=left", false), ("aspect=1:1&focus=700,150px", true),
            ("aspect=1:1&focus=0.78,0.5", true),
        ] {
            let answer = try await get(service, "/img/disc.jpg?\(query)")
            #expect(answer.status == .ok, "\(query): \(message(answer.body))")
            let image = try Image(source: .data(answer.body))
            #expect(image.size == PixelSize(validWidth: 300, height: 300), "\(query)")
            let red = redPixels(image.pixels)
            // π·30² ≈ 2,827 pixels when the whole disc is kept.
            #expect(keepsDisc ? red > 2500 : red == 0, "\(query): \(red) red pixels")
        }
        for (query, name) in [
            ("gravity=attention", "gravity"), ("focus=0.5,0.5", "focus"),
            ("aspect=original&gravity=top", "gravity"), ("aspect=1:1&rect=0,0,900,300&gravity=top", "gravity"),
            ("aspect=1:1&mode=fill", "mode"), ("aspect=1:1&focus=900,150", "focus"),
        ] {
            let answer = try await get(service, "/img/disc.jpg?\(query)")
            #expect(answer.status == .badRequest, "\(query)")
            #expect(message(answer.body).contains("invalid \(name)"), "\(query): \(message(answer.body))")
        }
    }
}
