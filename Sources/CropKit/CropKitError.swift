import CropCodecs
import CropGeometry
import CropPixels

/// Every error the `CropKit` face throws: the lower layers' errors, passed through with their context, and the
/// face's own request errors.
public enum CropKitError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Reading, decoding, encoding or writing failed (names the file or the codec's message).
    case codec(CodecError)
    /// A pixel operation was given arguments it cannot honour.
    case pixels(PixelError)
    /// A crop, recipe or geometry argument is invalid (names the field).
    case geometry(GeometryError)
    /// A request that cannot be carried out as given: `name` is the offending argument.
    case invalidRequest(name: String, reason: String)
    /// An output setting (``SaveOptions``) out of its range, or one the output format cannot honour; each face names
    /// the setting in its own words (`--quality`, `quality=`).
    case invalidOption(SaveOptions.Setting, reason: String)

    /// Wraps any error the lower layers throw.
    init(_ error: any Error) {
        switch error {
        case let e as CropKitError: self = e
        case let e as CodecError: self = .codec(e)
        case let e as PixelError: self = .pixels(e)
        case let e as GeometryError: self = .geometry(e)
        default: self = .invalidRequest(name: "operation", reason: String(describing: error))
        }
    }

    public var description: String {
        switch self {
        case .codec(let e): e.description
        case .pixels(let e): e.description
        case .geometry(let e): e.description
        case .invalidRequest(let name, let reason): "invalid \(name): \(reason)"
        case .invalidOption(let setting, let reason): "invalid \(setting.rawValue): \(reason)"
        }
    }
}

/// Runs `body`, mapping whatever it throws to ``CropKitError``.
@discardableResult
func mappingErrors<T>(_ body: () throws -> T) throws(CropKitError) -> T {
    do { return try body() } catch { throw CropKitError(error) }
}
