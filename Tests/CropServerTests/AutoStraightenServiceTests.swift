import CropCodecs
import CropKit
import CropServer
import CropTestSupport
import Foundation
import Testing

/// `straighten=auto` in the image service.
@Suite struct AutoStraightenServiceTests {
    @Test("straighten=auto levels a turned facade and says what it measured in CropKit-Straighten")
    func auto() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cropkit-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for (name, lines) in [("facade.png", true), ("blotches.png", false)] {
            let png = try ImageCodec.encode(
                tiltedScene(width: 480, height: 320, degrees: 6, seed: 3, lines: lines), as: .png)
            try Data(png).write(to: dir.appendingPathComponent(name))
        }
        let service = ImageService(
            configuration: ServiceConfiguration.forTests(root: try SourceFolder(root: dir.path), signer: nil))

        let levelled = try await get(service, "/img/facade.png?straighten=auto&format=png")
        #expect(levelled.status == .ok)
        let header = try #require(levelled.headers[ImageService.straightenHeader])
        let angle = header.split(separator: ";").first.flatMap { Double($0.dropFirst("angle=".count)) }
        #expect(angle.map { abs($0 - 6) < 0.2 } == true, "\(header)")
        #expect(header.hasSuffix("applied=1"), "\(header)")
        let image = try Image(source: .data(levelled.body))
        // The largest 3:2 crop with no fill inside the picture turned by 6°.
        let direct = try ImagePipeline().run(.file(dir.appendingPathComponent("facade.png").path), [.autoStraighten()])
        #expect(image.size == direct.size && image.size.width < 480, "\(image.size)")

        let alone = try await get(service, "/img/blotches.png?straighten=auto&format=png")
        #expect(alone.status == .ok)
        #expect(alone.headers[ImageService.straightenHeader]?.hasSuffix("applied=0") == true)
        #expect(try Image(source: .data(alone.body)).size == PixelSize(validWidth: 480, height: 320))

        let bad = try await get(service, "/img/facade.png?straighten=level")
        #expect(bad.status == .badRequest && message(bad.body).contains("auto"), "\(message(bad.body))")
    }
}
