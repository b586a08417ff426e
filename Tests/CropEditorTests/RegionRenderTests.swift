import CropKit
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import CropEditor

/// Sharp at every zoom: `GET /api/images/{id}/region` renders part of the picture from the source.
@Suite("Region renders")
struct RegionRenderTests {
    @Test(
        "a preview rectangle comes back as the source's own pixels of it, at the asked size or the source's, never more"
    )
    func regions() async throws {
        // Stored 160×240 (quadrants red, green / blue, yellow); the preview is 80×120, half the source.
        let server = try makeServer()
        try await server.makeApplication(logger: quietLogger).test(.router) { client in
            // The stored top-left quadrant (preview 0,0,40,60) at the source's resolution: 80×120, red.
            try await client.execute(
                uri: "/api/images/0/region?x=0&y=0&width=40&height=60&outWidth=80&outHeight=120", method: .get
            ) { response in
                #expect(response.status == .ok)
                #expect(response.headers[HTTPField.Name("X-Region")!] == "0,0,80,120")
                let image = try Image(source: .data(response.bytes))
                #expect(image.size == PixelSize(validWidth: 80, height: 120))
                for (x, y) in [(2, 2), (77, 2), (40, 60), (2, 117), (77, 117)] {
                    #expect(close(try decodedPixel(response.bytes, x: x, y: y), red, tolerance: 24), "(\(x), \(y))")
                }
            }
            // The bottom-right quadrant, asked at 4× the source: the source's 80×120 (real pixels, no upscale).
            try await client.execute(
                uri: "/api/images/0/region?x=40&y=60&width=40&height=60&outWidth=320&outHeight=480", method: .get
            ) { response in
                #expect(response.headers[HTTPField.Name("X-Region")!] == "80,120,80,120")
                let image = try Image(source: .data(response.bytes))
                #expect(image.size == PixelSize(validWidth: 80, height: 120))
                #expect(close(try decodedPixel(response.bytes, x: 40, y: 60), yellow, tolerance: 24))
            }
            // A fractional rectangle is widened to whole source pixels; one reaching outside is clipped.
            try await client.execute(
                uri: "/api/images/0/region?x=10.3&y=-5&width=100&height=20.2&outWidth=40&outHeight=40", method: .get
            ) { response in
                #expect(response.headers[HTTPField.Name("X-Region")!] == "20,0,140,31")
                let image = try Image(source: .data(response.bytes))
                #expect(
                    image.size.width == 40 && (8...9).contains(image.size.height), "fitted within 40×40: \(image.size)")
            }
            for (query, name) in [
                ("x=0&y=0&width=0&height=10&outWidth=10&outHeight=10", "width"),
                ("x=500&y=0&width=10&height=10&outWidth=10&outHeight=10", "x"),
                ("x=nan&y=0&width=10&height=10&outWidth=10&outHeight=10", "x"),
                ("x=0&y=0&width=10&height=10&outWidth=0&outHeight=10", "outWidth"),
                ("y=0&width=10&height=10&outWidth=10&outHeight=10", "x"),
            ] {
                try await client.execute(uri: "/api/images/0/region?" + query, method: .get) { response in
                    let message = expectError(response, .badRequest, "invalidParameter")
                    #expect(message.hasPrefix("invalid \(name)"), "\(query): \(message)")
                }
            }
            try await client.execute(
                uri: "/api/images/u9/region?x=0&y=0&width=10&height=10&outWidth=10&outHeight=10", method: .get
            ) { response in
                expectError(response, .notFound, "unknownImage")
            }
        }
    }
}

/// Cheap transfers: `GET /api/images/{id}/preview?side=N` answers a preview sized to the page's stage, in AVIF when
/// the browser takes it.
@Suite("Stage-sized previews")
struct StagePreviewTests {
    @Test(
        "a preview is fitted within the asked side rounded up to 128, AVIF when Accept names it (else WebP), never above the nominal preview, the same bytes again from the cache, and regions follow Accept too"
    )
    func stagePreviews() async throws {
        // Stored 160×240 (quadrants red, green / blue, yellow); the nominal preview is the whole 160×240.
        let server = try makeServer { $0.previewMaximumSide = 240 }
        let avif: HTTPFields = [.accept: "image/avif,image/webp,image/apng,image/*,*/*;q=0.8"]
        let webp: HTTPFields = [.accept: "image/webp,*/*;q=0.8"]
        try await server.makeApplication(logger: quietLogger).test(.router) { client in
            var first: [UInt8] = []
            for (headers, type) in [(avif, "image/avif"), (webp, "image/webp")] {
                try await client.execute(uri: "/api/images/0/preview?side=100", method: .get, headers: headers) {
                    response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType] == type)
                    #expect(response.headers[.vary] == "Accept")
                    let image = try Image(source: .data(response.bytes))
                    // 100 rounds up to 128: 160×240 fitted within 128×128 at its exact 2:3 (the pipeline's fit keeps the
                    // aspect exact: 84×126).
                    #expect(image.size == PixelSize(validWidth: 84, height: 126), "\(type): \(image.size)")
                    let topLeft = try decodedPixel(response.bytes, x: 4, y: 4)
                    let bottomRight = try decodedPixel(
                        response.bytes, x: image.size.width - 4, y: image.size.height - 4)
                    #expect(close(topLeft, red, tolerance: 24) && close(bottomRight, yellow, tolerance: 24))
                    if type == "image/avif" { first = response.bytes }
                }
            }
            try await client.execute(uri: "/api/images/0/preview?side=100", method: .get, headers: avif) { response in
                #expect(response.bytes == first, "made once, then kept")
            }
            // Larger than the nominal preview: WebP gets the nominal preview as it is, AVIF a copy at its size.
            try await client.execute(uri: "/api/images/0/preview?side=1000", method: .get, headers: webp) { response in
                #expect(response.headers[.contentType] == "image/webp" && response.headers[.cacheControl] == "no-cache")
                let size = try Image(source: .data(response.bytes)).size
                #expect(size == PixelSize(validWidth: 160, height: 240))
            }
            try await client.execute(uri: "/api/images/0/preview?side=1000", method: .get, headers: avif) { response in
                #expect(response.headers[.contentType] == "image/avif")
                let size = try Image(source: .data(response.bytes)).size
                #expect(size == PixelSize(validWidth: 160, height: 240))
            }
            for side in ["abc", "8", "-1"] {
                try await client.execute(uri: "/api/images/0/preview?side=\(side)", method: .get) { response in
                    let message = expectError(response, .badRequest, "invalidParameter")
                    #expect(message.hasPrefix("invalid side"), "\(side): \(message)")
                }
            }
            try await client.execute(
                uri: "/api/images/0/region?x=0&y=0&width=80&height=120&outWidth=80&outHeight=120", method: .get,
                headers: avif
            ) { response in
                #expect(response.headers[.contentType] == "image/avif")
                let centre = try decodedPixel(response.bytes, x: 40, y: 60)
                #expect(close(centre, red, tolerance: 24))
            }
        }
    }
}
