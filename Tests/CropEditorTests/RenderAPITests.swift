import CropCodecs
import CropKit
import CropTestSupport
import Foundation
import FoundationNetworking
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import CropEditor

#if canImport(FoundationNetworking)
#endif

@Suite struct RenderAPITests {
    /// A quarter turn clockwise, then the bottom half of that upright picture (recipe fractions are of the upright
    /// picture): displayed 240×160 → upright 160×240 → output 160×120. The displayed picture (orientation 6 turns
    /// the stored one clockwise) has blue, red over yellow, green; turned once more, its bottom half is green, red.
    var bottomHalfTurned: Recipe {
        get throws {
            try Recipe(cropCenter: Point(x: 0.5, y: 0.75), cropSize: Size(width: 1, height: 0.5), quarterTurns: 1)
        }
    }

    private func multipart(_ parts: [(name: String, type: String, bytes: [UInt8])], boundary: String = "b0undary")
        -> ByteBuffer
    {
        var body: [UInt8] = []
        for part in parts {
            body += Array(
                ("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\"; filename=\"f\"\r\n"
                    + "Content-Type: \(part.type)\r\n\r\n").utf8)
            body += part.bytes + Array("\r\n".utf8)
        }
        body += Array("--\(boundary)--\r\n".utf8)
        return ByteBuffer(bytes: body)
    }

    @Test(
        "an animated GIF renders every frame through the recipe: GIF by default, WebP when asked, the first frame with frames=first or as JPEG XL"
    )
    func animation() async throws {
        let server = try makeServer()
        let gif = try fixture("spin.gif")
        let turned = try Recipe(cropCenter: Point(x: 0.5, y: 0.5), cropSize: Size(width: 1, height: 1), quarterTurns: 1)
        for (query, type, frames) in [
            ("", "image/gif", 10), ("&format=webp", "image/webp", 10), ("&frames=first", "image/gif", 1),
            ("&format=jxl", "image/jxl", 1),
        ] {  // JPEG XL is written as a still
            try await server.makeApplication(logger: quietLogger).test(.router) { client in
                try await client.execute(
                    uri: "/api/render?recipe=\(recipeQuery(turned))" + query, method: .post,
                    headers: [.contentType: "image/gif"], body: ByteBuffer(bytes: gif)
                ) { response in
                    #expect(response.status == .ok, "\(query)")
                    #expect(response.headers[.contentType] == type)
                    let info = try ImageSource.data(response.bytes).info()
                    #expect(info.frameCount ?? 1 == frames, "\(query)")
                    #expect(info.displayedSize == PixelSize(validWidth: 32, height: 38))  // 38×32 turned
                }
            }
        }
    }

    @Test func rawBodyWithRecipeQueryRendersAtFullResolution() async throws {
        let server = try makeServer()
        let jpeg = try fixture(quadrantsName)
        try await server.makeApplication(logger: quietLogger).test(.router) { client in
            try await client.execute(
                uri: "/api/render?recipe=\(recipeQuery(try bottomHalfTurned))", method: .post,
                headers: [.contentType: "image/jpeg"], body: ByteBuffer(bytes: jpeg)
            ) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/jpeg")
                #expect(response.headers[HTTPField.Name("X-Image-Width")!] == "160")
                #expect(response.headers[HTTPField.Name("X-Image-Height")!] == "120")
                let image = try Image(source: .data(response.bytes))
                try #require(image.size == PixelSize(validWidth: 160, height: 120))
                #expect(close(image.pixels.pixel(x: 40, y: 60), green, tolerance: 24))
                #expect(close(image.pixels.pixel(x: 120, y: 60), red, tolerance: 24))
            }
        }
    }

    @Test(
        "straighten=auto levels the image (alone or on top of a recipe) and states the estimate in CropKit-Straighten")
    func autoStraighten() async throws {
        let server = try makeServer()
        let png = try ImageCodec.encode(tiltedScene(width: 360, height: 240, degrees: -4, seed: 9), as: .png)
        let direct = try ImagePipeline().run(.data(png), [.autoStraighten()])
        try await server.makeApplication(logger: quietLogger).test(.router) { client in
            try await client.execute(
                uri: "/api/render?straighten=auto&format=png", method: .post,
                headers: [.contentType: "image/png"], body: ByteBuffer(bytes: png)
            ) { response in
                #expect(response.status == .ok)
                let header = response.headers[HTTPField.Name("CropKit-Straighten")!] ?? ""
                let angle = header.split(separator: ";").first.flatMap { Double($0.dropFirst("angle=".count)) }
                #expect(angle.map { abs($0 - -4) < 0.2 } == true, "\(header)")
                #expect(header.hasSuffix("applied=1"), "\(header)")
                let image = try Image(source: .data(response.bytes))
                #expect(image.pixels == direct.pixels)
            }
            // With a recipe that turns a quarter: the angle is measured on the picture as shown, and turns with it.
            let turned = try Recipe(
                cropCenter: Point(x: 0.5, y: 0.5), cropSize: Size(width: 1, height: 1), quarterTurns: 1)
            try await client.execute(
                uri: "/api/render?recipe=\(recipeQuery(turned))&straighten=auto", method: .post,
                headers: [.contentType: "image/png"], body: ByteBuffer(bytes: png)
            ) { response in
                #expect(response.status == .ok)
                let image = try Image(source: .data(response.bytes))
                // Portrait now, and as small as the levelled picture (the recipe's free aspect may keep a pixel more).
                #expect(
                    abs(image.size.width - direct.size.height) <= 3 && abs(image.size.height - direct.size.width) <= 3,
                    "\(image.size) against \(direct.size) turned")
            }
            try await client.execute(
                uri: "/api/render?straighten=5", method: .post, headers: [.contentType: "image/png"],
                body: ByteBuffer(bytes: png)
            ) { response in
                #expect(response.status == .badRequest)
            }
        }
    }

    @Test func multipartWithImageAndRecipePartsAndPNGOutput() async throws {
        let server = try makeServer()
        let body = multipart([
            ("recipe", "application/json", Array(try bottomHalfTurned.json())),
            ("image", "image/jpeg", try fixture(quadrantsName)),
        ])
        try await server.makeApplication(logger: quietLogger).test(.router) { client in
            try await client.execute(
                uri: "/api/render?format=png&maxWidth=80", method: .post,
                headers: [.contentType: "multipart/form-data; boundary=b0undary"], body: body
            ) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/png")
                let image = try Image(source: .data(response.bytes))
                try #require(image.size == PixelSize(validWidth: 80, height: 60))  // fitted into maxWidth 80
                #expect(close(image.pixels.pixel(x: 60, y: 30), red, tolerance: 24))
            }
        }
    }

    @Test func pngSourceKeepsPNGAndAlpha() async throws {
        let server = try makeServer()
        let recipe = try Recipe(cropCenter: Point(x: 0.75, y: 0.5), cropSize: Size(width: 0.5, height: 1))
        try await server.makeApplication(logger: quietLogger).test(.router) { client in
            try await client.execute(
                uri: "/api/render?recipe=\(recipeQuery(recipe))", method: .post,
                headers: [.contentType: "image/png"], body: ByteBuffer(bytes: try fixture(halvesName))
            ) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/png")
                let image = try Image(source: .data(response.bytes))
                try #require(image.size == PixelSize(validWidth: 60, height: 80))
                #expect(close(image.pixels.pixel(x: 30, y: 40), [20, 160, 160, 128], tolerance: 2))
            }
        }
    }

    // MARK: Every 4xx

    @Test func everyBadRequestGetsA4xxNamingTheProblem() async throws {
        let server = try makeServer { $0.maximumRequestBytes = 64 * 1024 }
        let jpeg = try fixture(quadrantsName)
        let good = recipeQuery(try bottomHalfTurned)
        let outside = try Recipe(cropCenter: Point(x: 0.9, y: 0.5), cropSize: Size(width: 0.5, height: 1))
        let straightWhole = try Recipe(angle: 10)
        try await server.makeApplication(logger: quietLogger).test(.router) { client in
            func post(_ uri: String, type: String = "image/jpeg", body: [UInt8]? = nil) async throws -> TestResponse {
                try await client.execute(
                    uri: uri, method: .post, headers: [.contentType: type],
                    body: ByteBuffer(bytes: body ?? jpeg))
            }
            expectError(try await post("/api/render"), .badRequest, "missingRecipe")
            var message = expectError(try await post("/api/render?recipe=%7Bnope"), .badRequest, "invalidRecipe")
            #expect(message.contains("not a JSON object"))
            message = expectError(
                try await post("/api/render?recipe=%7B%22version%22%3A2%7D"), .badRequest, "invalidRecipe")
            #expect(message.contains("version"))
            message = expectError(
                try await post("/api/render?recipe=\(recipeQuery(outside))"), .badRequest, "invalidRecipe")
            #expect(message.contains("outside the picture"))
            message = expectError(
                try await post("/api/render?recipe=\(recipeQuery(straightWhole))"), .badRequest, "invalidRecipe")
            #expect(message.contains("straightened by 10.0°"))
            message = expectError(
                try await post("/api/render?recipe=\(good)&format=tiff"), .badRequest,
                "invalidParameter")
            #expect(message.contains("format"))
            // The output rules the render API takes (it has no strip flag), worded as the library words them.
            for rule in OutputRuleCase.all where rule.inURLs && rule.flag == nil {
                message = expectError(
                    try await post("/api/render?recipe=\(good)&\(rule.query)"), .badRequest, "invalidParameter")
                #expect(message.contains("invalid \(rule.key): \(rule.reason)"), "\(rule): \(message)")
            }
            expectError(try await post("/api/render?recipe=\(good)&maxWidth=-3"), .badRequest, "invalidParameter")
            expectError(
                try await post("/api/render?recipe=\(good)", type: "text/plain"), .unsupportedMediaType,
                "unsupportedMediaType")
            message = expectError(
                try await post(
                    "/api/render?recipe=\(good)", body: Array("8BPS".utf8) + [UInt8](repeating: 0, count: 20)),
                .unsupportedMediaType, "unsupportedImage")
            #expect(message.contains("Photoshop"))
            message = expectError(
                try await post("/api/render?recipe=\(good)", body: Array("BM".utf8) + [UInt8](repeating: 0, count: 20)),
                .unprocessableContent, "corruptImage")
            #expect(message.contains("BMP") && message.contains("info header"))
            message = expectError(
                try await post("/api/render?recipe=\(good)", body: Array("GIF89a....".utf8)),
                .unprocessableContent, "corruptImage")
            #expect(message.contains("GIF"))
            expectError(
                try await post("/api/render?recipe=\(good)", body: Array("hello".utf8)),
                .unsupportedMediaType, "unsupportedImage")
            message = expectError(
                try await post("/api/render?recipe=\(good)", body: Array(jpeg.prefix(jpeg.count / 2))),
                .unprocessableContent, "corruptImage")
            #expect(message.contains("JPEG"))
            expectError(try await post("/api/render?recipe=\(good)", body: []), .badRequest, "missingImage")
            // Multipart without an image, with a bad boundary.
            expectError(
                try await post(
                    "/api/render?recipe=\(good)", type: "multipart/form-data; boundary=b0undary",
                    body: Array(multipart([("other", "text/plain", [1, 2])]).readableBytesView)),
                .badRequest, "missingImage")
            expectError(
                try await post(
                    "/api/render", type: "multipart/form-data; boundary=b0undary",
                    body: Array(multipart([("image", "image/jpeg", jpeg)]).readableBytesView)),
                .badRequest, "missingRecipe")
            expectError(
                try await post("/api/render?recipe=\(good)", type: "multipart/form-data", body: jpeg),
                .badRequest, "malformedMultipart")
            // Over the size limit.
            message = expectError(
                try await post("/api/render?recipe=\(good)", body: [UInt8](repeating: 0xFF, count: 70_000)),
                .contentTooLarge, "requestTooLarge")
            #expect(message.contains("65536 bytes"))
            // Unknown session.
            expectError(
                try await client.execute(uri: "/api/sessions/nope/render", method: .post), .notFound,
                "unknownSession")
            expectError(
                try await client.execute(uri: "/api/sessions/nope", method: .delete), .notFound,
                "unknownSession")
        }
    }

    @Test func pixelLimitIs413() async throws {
        // The edited picture is read under the default limit; the server's 5 000 px limit then refuses a request's
        // 120×80 PNG (9 600 px).
        let server = try makeServer()
        let tight = EditorServer(
            image: try await server.firstImage,
            configuration: {
                var c = server.configuration
                c.pixelLimits = PixelLimits(maxPixels: 5_000)
                return c
            }(),
            page: server.page)
        try await tight.makeApplication(logger: quietLogger).test(.router) { client in
            let response = try await client.execute(
                uri: "/api/render?recipe=\(recipeQuery(try Recipe()))", method: .post,
                headers: [.contentType: "image/png"], body: ByteBuffer(bytes: try fixture(halvesName)))
            let message = expectError(response, .contentTooLarge, "tooManyPixels")
            #expect(message.contains("120×80"))
            #expect(message.contains("5000"))
        }
    }

    @Test func declaredLengthOverTheLimitIsRefusedBeforeReading() async throws {
        let server = try makeServer { $0.maximumRequestBytes = 1000 }
        try await server.makeApplication(logger: quietLogger).test(.live) { client in
            let response = try await client.execute(
                uri: "/api/render?recipe=\(recipeQuery(try Recipe()))", method: .post,
                headers: [.contentType: "image/jpeg", .contentLength: "5000"],
                body: ByteBuffer(bytes: [UInt8](repeating: 1, count: 5000)))
            expectError(response, .contentTooLarge, "requestTooLarge")
        }
    }

    @Test func aFullQueueAnswers503AndEverythingElseSucceeds() async throws {
        // One render at a time, one waiting: of 12 simultaneous requests some must be refused with 503, none may
        // fail otherwise.
        let server = try makeServer {
            $0.renderConcurrency = 1
            $0.renderQueueCapacity = 1
        }
        let jpeg = try fixture(quadrantsName)
        let uri = "/api/render?recipe=\(recipeQuery(try bottomHalfTurned))"
        // Twelve connections at once through URLSession with a 10-minute timeout: the test client's fixed 15-s
        // deadline (and its pool of 8 connections) once failed this test on a machine loaded by the rest of the suite.
        let statuses = try await server.makeApplication(logger: quietLogger).test(.live) { client in
            let port = try #require(client.port)
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = 600
            configuration.timeoutIntervalForResource = 600
            configuration.httpMaximumConnectionsPerHost = 12
            let session = URLSession(configuration: configuration)
            return try await withThrowingTaskGroup(of: (HTTPResponse.Status, String?, String?).self) { group in
                for _ in 0..<12 {
                    group.addTask {
                        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(uri)")!)
                        request.httpMethod = "POST"
                        request.setValue("image/jpeg", forHTTPHeaderField: "Content-Type")
                        let (data, response) = try await session.upload(for: request, from: Data(jpeg))
                        let http = try #require(response as? HTTPURLResponse)
                        let problem = try? JSONDecoder().decode(ErrorBody.self, from: data).error.problem
                        return (
                            HTTPResponse.Status(code: http.statusCode), problem,
                            http.value(forHTTPHeaderField: "Retry-After")
                        )
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        let ok = statuses.filter { $0.0 == .ok }.count
        let busy = statuses.filter { $0.0 == .serviceUnavailable }
        #expect(ok >= 2)
        #expect(ok + busy.count == 12)
        #expect(busy.allSatisfy { $0.1 == "busy" && $0.2 == "1" })
        #expect(await server.renderQueue.peakRunning == 1)
        #expect(await server.renderQueue.refused == busy.count)
    }

    @Test func aRequestFindingEverySlotAndQueuePlaceTakenGets503() async throws {
        let server = try makeServer {
            $0.renderConcurrency = 1
            $0.renderQueueCapacity = 0
        }
        try await server.renderQueue.acquire()  // a render in progress
        try await server.makeApplication(logger: quietLogger).test(.router) { client in
            let response = try await client.execute(
                uri: "/api/render?recipe=\(recipeQuery(try bottomHalfTurned))", method: .post,
                headers: [.contentType: "image/jpeg"], body: ByteBuffer(bytes: try fixture(quadrantsName)))
            expectError(response, .serviceUnavailable, "busy")
            #expect(response.headers[.retryAfter] == "1")
            await server.renderQueue.release()
            let retry = try await client.execute(
                uri: "/api/render?recipe=\(recipeQuery(try bottomHalfTurned))", method: .post,
                headers: [.contentType: "image/jpeg"], body: ByteBuffer(bytes: try fixture(quadrantsName)))
            #expect(retry.status == .ok)
        }
    }
}
