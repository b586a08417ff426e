import CropCodecs

/// Where an image comes from: a file or bytes already in memory.
public enum ImageSource: Hashable, Sendable, CustomStringConvertible {
    /// A file path. It is read whole, once; the file is never modified.
    case file(String)
    /// The bytes of a JPEG, PNG or WebP file.
    case data([UInt8])

    /// The encoded bytes.
    ///
    /// - Throws: ``CropKitError/codec(_:)`` with `CodecError.ioFailure(path:operation:reason:)` when the file
    ///   cannot be read.
    public func bytes() throws(CropKitError) -> [UInt8] {
        switch self {
        case .file(let path): try mappingErrors { try FileIO.readFile(atPath: path) }
        case .data(let bytes): bytes
        }
    }

    /// The header facts (format, stored size, orientation, depth …) without decoding pixels.
    public func info(strict: Bool = false) throws(CropKitError) -> ImageInfo {
        switch self {
        case .file(let path): try mappingErrors { try ImageInfo.read(fileAtPath: path, strict: strict) }
        case .data(let bytes): try mappingErrors { try ImageCodec.readInfo(bytes, strict: strict) }
        }
    }

    public var description: String {
        switch self {
        case .file(let path): path
        case .data(let bytes): "\(bytes.count) bytes in memory"
        }
    }
}
