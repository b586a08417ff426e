import CropKit
import Foundation
import HTTPTypes
import Testing

@testable import CropServer

/// `watermark=NAME`: a mark the operator configured, laid over the output, part of the signature and the cache key;
/// a request can only name one, never give a file or URL.
@Suite struct WatermarkServiceTests {
    static let markPath = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!
        .appendingPathComponent("photos/sub/logo.png").path

    static func service() throws -> ImageService {
        let mark = try Watermark(contentsOfFile: markPath)
        return try ServedFolder.service { $0.watermarks = ["logo": mark] }
    }

    @Test("the answer is the library's run with the same mark, byte for byte; the ETag changes with the mark")
    func answers() async throws {
        let service = try Self.service()
        let answer = try await get(
            service,
            try ServedFolder.signed(
                "/img/beach.jpg?width=160&format=png&watermark=logo&watermark-gravity=top-left&watermark-opacity=0.5"))
        #expect(answer.status == .ok, "\(message(answer.body))")
        let mark = try Watermark(contentsOfFile: Self.markPath, gravity: .topLeft, opacity: 0.5)
        let expected = try ImagePipeline(shrinkOnLoadHeadroom: ImageQuery.serviceShrinkOnLoadHeadroom, maxThreads: 1)
            .run(
                .file(ServedFolder.path + "/beach.jpg"), [.resize(ResizeRequest(.width(160))), .watermark(mark)],
                to: .data(SaveOptions(format: .png)))
        #expect(answer.body == expected.bytes)
        let plain = try await get(service, try ServedFolder.signed("/img/beach.jpg?width=160&format=png"))
        #expect(plain.body != answer.body && plain.headers[.eTag] != answer.headers[.eTag])
        // Another file under the same name: another ETag, so no cache serves the old mark.
        let other = try ServedFolder.service {
            $0.watermarks = ["logo": try! Watermark(contentsOfFile: ServedFolder.path + "/beach.jpg")]
        }
        let swapped = try await get(
            other,
            try ServedFolder.signed(
                "/img/beach.jpg?width=160&format=png&watermark=logo&watermark-gravity=top-left&watermark-opacity=0.5"))
        #expect(swapped.status == .ok && swapped.headers[.eTag] != answer.headers[.eTag])
    }

    static let fontPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("CropKitTests/Fixtures/text/test-sans-bold.ttf").path

    @Test(
        "watermark-text in an operator's font: the library's text mark, byte for byte; the ETag follows the text and the font"
    )
    func text() async throws {
        let font = try FontFace(contentsOfFile: Self.fontPath)
        let service = try ServedFolder.service { $0.fonts = ["sans": font] }
        let query =
            "/img/beach.jpg?width=160&format=png&watermark-text=%C2%A9%20Ada&font=sans&watermark-outline=black&watermark-scale=0.5"
        let answer = try await get(service, try ServedFolder.signed(query))
        #expect(answer.status == .ok, "\(message(answer.body))")
        let mark = try Watermark(text: try TextMark("© Ada", font: font, outline: .black), scale: 0.5)
        let expected = try ImagePipeline(shrinkOnLoadHeadroom: ImageQuery.serviceShrinkOnLoadHeadroom, maxThreads: 1)
            .run(
                .file(ServedFolder.path + "/beach.jpg"), [.resize(ResizeRequest(.width(160))), .watermark(mark)],
                to: .data(SaveOptions(format: .png)))
        #expect(answer.body == expected.bytes)
        let other = try await get(service, try ServedFolder.signed(query.replacingOccurrences(of: "Ada", with: "Bob")))
        #expect(other.status == .ok && other.headers[.eTag] != answer.headers[.eTag])
        // The same name for another font file: another ETag.
        let cut = try FontFace(
            data: [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.fontPath))) + [0, 0, 0, 0], name: "padded")
        let swapped = try await get(
            try ServedFolder.service { $0.fonts = ["sans": cut] }, try ServedFolder.signed(query))
        #expect(swapped.status == .ok && swapped.headers[.eTag] != answer.headers[.eTag])
        // A character the font lacks, an unknown font: 400 naming the parameter.
        for (bad, name) in [
            ("watermark-text=%D0%96&font=sans", "watermark-text"), ("watermark-text=Ada&font=serif", "font"),
        ] {
            let refused = try await get(service, try ServedFolder.signed("/img/beach.jpg?width=100&" + bad))
            #expect(
                refused.status == .badRequest && message(refused.body).contains(name),
                "\(bad): \(message(refused.body))")
        }
    }

    @Test(
        "unknown names, bad values and options without a mark are 400 naming the parameter",
        arguments: [
            ("watermark=nope", "watermark"), ("watermark=logo&watermark-scale=2", "watermark-scale"),
            ("watermark=logo&watermark-opacity=x", "watermark-opacity"),
            ("watermark=logo&watermark-gravity=middle", "watermark-gravity"),
            ("watermark-tile", "watermark-tile"), ("watermark=..%2Fsecret.png", "watermark"),
        ])
    func refusals(_ query: String, _ name: String) async throws {
        let answer = try await get(try Self.service(), try ServedFolder.signed("/img/beach.jpg?width=100&" + query))
        #expect(answer.status == .badRequest, "\(query)")
        #expect(
            problem(answer.body) == "invalidParameter" && message(answer.body).contains(name),
            "\(query): \(message(answer.body))")
    }
}
