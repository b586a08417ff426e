import CropKit
import Foundation
import HTTPTypes
import Hummingbird

/// Every error the web faces answer with (the editor's routes and render API, and `cropkit serve`'s image service;
/// `EditorError` in CropEditor is this type). Each case names the problem; each maps to one HTTP status (4xx, 503
/// for a full render queue or a timeout, 502/504 for a failed HTTP origin) and a JSON body
/// `{"error": {"message": …, "problem": …}}`, where `problem` is a stable machine-readable name of the case.
public enum WebError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The request body is larger than `EditorServer.Configuration.maximumRequestBytes` (the service: its configuration's).
    case requestTooLarge(limit: Int)
    /// The request has no image (empty body, or no `image` part in a multipart form).
    case missingImage
    /// The request has no recipe (no `recipe` query parameter and no `recipe` part).
    case missingRecipe
    /// The recipe is not valid JSON for `Recipe` or does not fit the image; `reason` names the field.
    case invalidRecipe(reason: String)
    /// A query parameter or form field has a value that cannot be used.
    case invalidParameter(name: String, reason: String)
    /// The multipart body is malformed.
    case malformedMultipart(reason: String)
    /// The body's content type is not one the endpoint accepts.
    case unsupportedMediaType(String)
    /// The image is not an image CropKit can read (not an image, an unsupported format or feature).
    case unsupportedImage(reason: String)
    /// The image data is truncated or corrupt.
    case corruptImage(reason: String)
    /// The image has more pixels than the configured limit.
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// An animation's frames × canvas pixels are more than the configured limit.
    case tooManyAnimationPixels(frames: Int, width: Int, height: Int, limit: Int)
    /// No edit session has this id (never created, expired or cancelled).
    case unknownSession(String)
    /// No picture has this id (never opened, or an upload forgotten to make room for newer ones).
    case unknownImage(String)
    /// The render queue is full; try again later.
    case busy(queued: Int)
    /// The work would hold more memory at its peak (`planned` bytes, planned from the header) than one request may
    /// (`limit`, ``MemoryBudget/requestLimit``).
    case needsTooMuchMemory(planned: Int, limit: Int)
    /// No route matches the path (the server serves a fixed set of paths and nothing from the file system).
    case notFound(path: String)
    /// The route exists but not for this method.
    case methodNotAllowed(method: String, path: String)
    /// The image URL's signature is missing or wrong (`cropkit serve`).
    case forbidden(reason: String)
    /// The source is larger than the service's limit: `bytes` is its size, or `nil` when an origin sent no length
    /// and the body was stopped at the limit.
    case sourceTooLarge(bytes: Int?, limit: Int)
    /// Processing took longer than the service's limit.
    case timedOut(seconds: Double)
    /// An HTTP origin failed: it could not be reached, answered with an error, or redirected too often.
    case originFailed(url: String, reason: String)
    /// An HTTP origin did not deliver the source within the service's limit.
    case originTimedOut(url: String, seconds: Double)
    /// An automatic straighten was asked for, but the measure is not confident (too few straight lines agree).
    case autoStraightenUnsure(StraightenEstimate)
    /// A photo's saved crop (its `RecipeSidecar`, CropEditor, named `name`) cannot be read or is not a valid recipe.
    case invalidSidecar(name: String, reason: String)
    /// A crop could not be saved beside its photo (the sidecar `name`), or an export could not be written.
    case cannotSave(name: String, reason: String)
    /// An "Export all" is running already; one runs at a time.
    case exportRunning
    /// The request needs the editor's own photos as files (a folder or a file list), and this editor has none.
    case noFolder

    /// Maps a CropKit error met while reading a client's image or applying its recipe.
    public init(_ error: CropKitError) {
        switch error {
        case .geometry(let e):
            self = .invalidRecipe(reason: e.description)
        case .codec(.tooManyPixels(let w, let h, let limit)), .pixels(.tooManyPixels(let w, let h, let limit)):
            self = .tooManyPixels(width: w, height: h, limit: limit)
        case .pixels(.tooManyAnimationPixels(let frames, let w, let h, let limit)):
            self = .tooManyAnimationPixels(frames: frames, width: w, height: h, limit: limit)
        case .codec(.notAnImage), .codec(.unsupportedFormat), .codec(.unsupportedFeature):
            self = .unsupportedImage(reason: error.description)
        case .codec(.truncated), .codec(.corruptData), .codec(.resourceLimit):
            self = .corruptImage(reason: error.description)
        case .invalidRequest(let name, let reason):
            self = .invalidParameter(name: name, reason: reason)
        case .invalidOption(let setting, let reason):
            self = .invalidParameter(name: setting.rawValue, reason: reason)
        case .codec, .pixels:
            self = .unsupportedImage(reason: error.description)
        }
    }

    /// The HTTP status this error answers with.
    public var status: HTTPResponse.Status {
        switch self {
        case .requestTooLarge, .tooManyPixels, .tooManyAnimationPixels, .needsTooMuchMemory: .contentTooLarge
        case .missingImage, .missingRecipe, .invalidRecipe, .invalidParameter, .malformedMultipart: .badRequest
        case .unsupportedMediaType, .unsupportedImage: .unsupportedMediaType
        case .corruptImage, .autoStraightenUnsure: .unprocessableContent
        case .unknownSession, .unknownImage, .notFound: .notFound
        case .methodNotAllowed: .methodNotAllowed
        case .busy, .timedOut: .serviceUnavailable
        case .forbidden: .forbidden
        case .sourceTooLarge: .contentTooLarge
        case .originFailed: .badGateway
        case .originTimedOut: .gatewayTimeout
        case .invalidSidecar: .unprocessableContent
        case .cannotSave: .internalServerError
        case .exportRunning, .noFolder: .conflict
        }
    }

    /// A stable name for the kind of problem (the JSON body's `problem`).
    public var problem: String {
        switch self {
        case .requestTooLarge: "requestTooLarge"
        case .missingImage: "missingImage"
        case .missingRecipe: "missingRecipe"
        case .invalidRecipe: "invalidRecipe"
        case .invalidParameter: "invalidParameter"
        case .malformedMultipart: "malformedMultipart"
        case .unsupportedMediaType: "unsupportedMediaType"
        case .unsupportedImage: "unsupportedImage"
        case .corruptImage: "corruptImage"
        case .tooManyPixels: "tooManyPixels"
        case .tooManyAnimationPixels: "tooManyAnimationPixels"
        case .unknownSession: "unknownSession"
        case .unknownImage: "unknownImage"
        case .busy: "busy"
        case .needsTooMuchMemory: "needsTooMuchMemory"
        case .notFound: "notFound"
        case .methodNotAllowed: "methodNotAllowed"
        case .forbidden: "forbidden"
        case .sourceTooLarge: "sourceTooLarge"
        case .timedOut: "timedOut"
        case .originFailed: "originFailed"
        case .originTimedOut: "originTimedOut"
        case .autoStraightenUnsure: "autoStraightenUnsure"
        case .invalidSidecar: "invalidSidecar"
        case .cannotSave: "cannotSave"
        case .exportRunning: "exportRunning"
        case .noFolder: "noFolder"
        }
    }

    public var description: String {
        switch self {
        case .requestTooLarge(let limit): "the request body is larger than the limit of \(limit) bytes"
        case .missingImage: "the request has no image: send it as the body or as a multipart part named 'image'"
        case .missingRecipe:
            "the request has no recipe: send it as the 'recipe' query parameter or a multipart part named 'recipe'"
        case .invalidRecipe(let reason): "invalid recipe: \(reason)"
        case .invalidParameter(let name, let reason): "invalid \(name): \(reason)"
        case .malformedMultipart(let reason): "malformed multipart body: \(reason)"
        case .unsupportedMediaType(let type): "unsupported content type '\(type)'"
        case .unsupportedImage(let reason): "unsupported image: \(reason)"
        case .corruptImage(let reason): "unreadable image: \(reason)"
        case .tooManyPixels(let w, let h, let limit):
            "the image is \(w)×\(h) pixels, more than the limit of \(limit) pixels"
        case .tooManyAnimationPixels(let frames, let w, let h, let limit):
            "the animation is \(frames) frames of \(w)×\(h) pixels, more than the limit of \(limit) pixels over all frames"
        case .unknownSession(let id): "no edit session '\(id)' (it expired or was cancelled)"
        case .unknownImage(let id):
            "no picture '\(id)' (it was never opened, or was closed to make room for newer ones)"
        case .busy(let queued): "the server is busy (\(queued) renders queued); try again shortly"
        case .needsTooMuchMemory(let planned, let limit):
            "the image needs about \(planned >> 20) MB of memory to process, more than the limit of \(limit >> 20) MB per request"
        case .notFound(let path): "nothing is served at '\(path)'"
        case .methodNotAllowed(let method, let path): "\(method) is not allowed on '\(path)'"
        case .forbidden(let reason): "forbidden: \(reason)"
        case .sourceTooLarge(let bytes?, let limit): "the source is \(bytes) bytes, more than the limit of \(limit)"
        case .sourceTooLarge(nil, let limit): "the source is more than the limit of \(limit) bytes"
        case .timedOut(let seconds): "processing took longer than \(seconds) s; try again shortly"
        case .originFailed(let url, let reason): "the origin failed for \(url): \(reason)"
        case .originTimedOut(let url, let seconds): "the origin did not deliver \(url) within \(seconds) s"
        case .autoStraightenUnsure(let e) where e.foundNothing:
            "auto straighten found \(e.unsureText); the angle is unchanged"
        case .autoStraightenUnsure(let e):
            "auto straighten is not sure (\(e.unsureText)); the angle is unchanged"
        case .invalidSidecar(let name, let reason): "the saved crop \(name) cannot be read: \(reason)"
        case .cannotSave(let name, let reason): "cannot save \(name): \(reason)"
        case .exportRunning: "an export is running already; wait for it to finish"
        case .noFolder: "this editor was started on one picture, not on a folder or a list of photos"
        }
    }

    /// The JSON body.
    struct Body: Codable, Hashable {
        struct Detail: Codable, Hashable {
            var message: String
            var problem: String
        }
        var error: Detail
    }
}

extension WebError {
    /// A person's line for any error met on one photo (an editor, CropKit or geometry error names its problem; a
    /// CropKit error is said as the server says it, ``init(_:)``).
    package static func message(for error: any Error) -> String {
        switch error {
        case let e as WebError: e.description
        case let e as CropKitError: WebError(e).description
        case let e as GeometryError: e.description
        default: "\(error)"
        }
    }
}

extension WebError: HTTPResponseError {
    /// The JSON error response (`Retry-After: 1` on 503).
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = try jsonResponse(Body(error: .init(message: description, problem: problem)), status: status)
        if status == .serviceUnavailable { response.headers[.retryAfter] = "1" }
        return response
    }
}

/// A JSON response of `value` (keys sorted).
package func jsonResponse(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let data = try encoder.encode(value)
    return Response(
        status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
        body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
}
