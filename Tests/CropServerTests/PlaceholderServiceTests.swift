import CropKit
import Foundation
import HTTPTypes
import Testing

@testable import CropServer

/// `placeholder=` on an image URL: the JSON of the library's placeholder of the same steps, signed, with its own
/// `ETag`, cacheable like the picture. The library is run with the service's shrink-on-load headroom, as the service
/// runs it.
@Suite struct PlaceholderServiceTests {
    @Test(
        "each kind answers the library's JSON for the same steps, with an ETag that a repeat matches",
        arguments: Placeholder.Kind.allCases)
    func answers(_ kind: Placeholder.Kind) async throws {
        let service = try ServedFolder.service()
        let uri = try ServedFolder.signed("/img/beach.jpg?aspect=4:3&width=120&placeholder=\(kind.rawValue)")
        let answer = try await get(service, uri)
        #expect(answer.status == .ok, "\(message(answer.body))")
        #expect(answer.headers[.contentType] == "application/json; charset=utf-8")
        let expected = try ImagePipeline(shrinkOnLoadHeadroom: ImageQuery.serviceShrinkOnLoadHeadroom).placeholder(
            .file(ServedFolder.path + "/beach.jpg"),
            [.aspect(.ratio(try AspectRatio(4, 3))), .resize(ResizeRequest(.width(120)))],
            kind: kind)
        #expect(message(answer.body) == expected.json)
        let etag = try #require(answer.headers[.eTag])
        #expect(answer.headers[.cacheControl]?.hasPrefix("public") == true)
        let again = try await get(service, uri, headers: [.ifNoneMatch: etag])
        #expect(again.status == .notModified)
        // The picture itself has another ETag: a cache keeps both.
        let picture = try await get(service, try ServedFolder.signed("/img/beach.jpg?aspect=4:3&width=120"))
        #expect(picture.status == .ok && picture.headers[.eTag] != etag)
    }

    @Test("a preset's placeholder is the preset's picture's; output parameters are ignored; bad values are 400 by name")
    func presetsAndErrors() async throws {
        let service = try ServedFolder.service { $0.presets = ["card": "size=160x90&mode=fill&format=webp&quality=70"] }
        let answer = try await get(
            service, try ServedFolder.signed("/img/beach.jpg?preset=card&placeholder=blurhash&components=3x3"))
        #expect(answer.status == .ok, "\(message(answer.body))")
        let expected = try ImagePipeline(shrinkOnLoadHeadroom: ImageQuery.serviceShrinkOnLoadHeadroom).placeholder(
            .file(ServedFolder.path + "/beach.jpg"),
            [.resize(ResizeRequest(.box(PixelSize(validWidth: 160, height: 90)), mode: .fill()))], kind: .blurhash,
            components: (3, 3))
        #expect(message(answer.body) == expected.json)
        for (query, name) in [
            ("placeholder=jpeg", "placeholder"), ("placeholder=thumbhash&components=3x3", "components"),
            ("placeholder=blurhash&components=0x3", "components"), ("components=3x3", "components"),
        ] {
            let refused = try await get(service, try ServedFolder.signed("/img/beach.jpg?" + query))
            #expect(refused.status == .badRequest, "\(query)")
            #expect(
                problem(refused.body) == "invalidParameter" && message(refused.body).contains(name),
                "\(query): \(message(refused.body))")
        }
        // Unsigned, it is refused like any image URL.
        let unsigned = try await get(service, "/img/beach.jpg?placeholder=blurhash")
        #expect(unsigned.status == .forbidden)
    }
}
