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
    @Test("a preview rectangle comes back as the source's own pixels of it, at the asked size or the source's, never more")
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
                #expect(image.size.width == 40 && (8...9).contains(image.size.height), "fitted within 40×40: \(image.size)")
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
