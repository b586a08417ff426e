import CropKit
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Testing

@testable import CropEditor

/// The bytes of a fixture in Tests/CropEditorTests/Fixtures.
func fixture(_ name: String) throws -> [UInt8] {
    let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"))
    return [UInt8](try Data(contentsOf: url))
}

/// Stored 160×240 with EXIF orientation 6 (displayed 240×160); stored quadrants red, green / blue, yellow.
let quadrantsName = "quadrants-orientation6.jpg"
/// 120×80 RGBA: left half opaque orange, right half half-transparent teal.
let halvesName = "halves-rgba.png"

/// A server editing the quadrants fixture with a small preview.
func makeServer(_ configure: (inout EditorServer.Configuration) -> Void = { _ in }) throws -> EditorServer {
    var configuration = EditorServer.Configuration(previewMaximumSide: 120)
    configure(&configuration)
    let image = try EditedImage(
        name: quadrantsName, bytes: try fixture(quadrantsName), pipeline: configuration.pipeline,
        previewMaximumSide: configuration.previewMaximumSide)
    return EditorServer(image: image, configuration: configuration, page: try EditorPage())
}

extension EditorServer {
    /// The picture the server started with (id "0").
    var firstImage: EditedImage {
        get async throws { try await library.image(library.firstID) }
    }
}

/// The JSON error body every failure carries.
struct ErrorBody: Decodable {
    struct Detail: Decodable {
        var message: String
        var problem: String
    }
    var error: Detail
}

extension TestResponse {
    /// The body's bytes.
    var bytes: [UInt8] { Array(body.readableBytesView) }

    /// The body decoded as the JSON error, or `nil`.
    var errorBody: ErrorBody? { try? JSONDecoder().decode(ErrorBody.self, from: Data(bytes)) }
}

/// Asserts an answer is the JSON error with `status` and `problem`, and returns its message.
@discardableResult
func expectError(
    _ response: TestResponse, _ status: HTTPResponse.Status, _ problem: String,
    sourceLocation: SourceLocation = #_sourceLocation
) -> String {
    #expect(response.status == status, sourceLocation: sourceLocation)
    #expect(response.headers[.contentType]?.hasPrefix("application/json") == true, sourceLocation: sourceLocation)
    let body = response.errorBody
    #expect(body?.error.problem == problem, sourceLocation: sourceLocation)
    return body?.error.message ?? ""
}

/// A recipe as compact JSON, percent-encoded for a query.
func recipeQuery(_ recipe: Recipe) -> String {
    String(decoding: recipe.json(), as: UTF8.self)
        .addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
}

/// Decodes an image and returns its pixel at (x, y) as [r, g, b(, a)].
func decodedPixel(_ bytes: [UInt8], x: Int, y: Int) throws -> [Int] {
    try Image(source: .data(bytes)).pixels.pixel(x: x, y: y)
}

/// Whether two colours are within `tolerance` on every channel they share.
func close(_ a: [Int], _ b: [Int], tolerance: Int) -> Bool {
    zip(a, b).allSatisfy { abs($0 - $1) <= tolerance }
}

let red = [220, 30, 30], green = [30, 200, 30], blue = [30, 30, 220], yellow = [230, 220, 40]

/// A logger that keeps the servers' shutdown chatter out of the test output.
let quietLogger: Logger = {
    var logger = Logger(label: "CropEditorTests")
    logger.logLevel = .critical
    return logger
}()

/// A clock that moves only when told to, for expiry tests without waiting.
final class ManualClock: @unchecked Sendable {
    // @unchecked Sendable: `instant` is only read and written with `lock` held.
    private let lock = NSLock()
    private var instant = ContinuousClock.now

    /// The current time.
    var now: ContinuousClock.Instant { lock.withLock { instant } }

    /// Moves the clock forward.
    func advance(by duration: Duration) {
        lock.withLock { instant += duration }
    }
}
