/// What the C shims (CJPEG, CPNG) report, mapped to Swift once for both codecs.
///
/// Both shims return the same status numbers (`CK_JPEG_ERR_*` and `CK_PNG_ERR_*` share their values) and keep the
/// library's last message and its first few warnings in the codec handle.
enum ShimStatus {
    static let ok: Int32 = 0
    static let corrupt: Int32 = 1
    static let truncated: Int32 = 2
    static let strictWarning: Int32 = 3
    static let unsupported: Int32 = 4
    static let memory: Int32 = 5
    static let notAnImage: Int32 = 6
    static let tooManyScans: Int32 = 7
    static let usage: Int32 = 8
    static let io: Int32 = 9

    /// The error for a non-zero `status` from a shim working on `format`, with the library's `message`.
    ///
    /// - Parameters:
    ///   - role: `"decoder"` or `"encoder"`, named when the calls were made out of order.
    ///   - path: the file read or written, for I/O failures.
    static func error(
        _ status: Int32, format: ImageFormat, message: String, role: String, path: String? = nil
    ) -> CodecError {
        switch status {
        case io:
            .ioFailure(path: path ?? "(\(format) \(role))", operation: role == "decoder" ? "read" : "write", reason: message)
        case truncated: .truncated(format: format, detail: message)
        case strictWarning: .corruptData(format: format, message: message + " (strict mode)")
        case unsupported: .unsupportedFeature(format: format, feature: message)
        case memory, tooManyScans: .resourceLimit(format: format, message: message)
        case notAnImage: .notAnImage(reason: message)
        case usage: .invalidArgument(name: "\(role) state", reason: "calls made out of order")
        default: .corruptData(format: format, message: message)
        }
    }
}

extension ImageRowEncoder {
    /// Throws unless every row has been written: the check before finishing a file.
    func checkAllRowsWritten() throws(CodecError) {
        guard rowsWritten == height else {
            throw .invalidArgument(name: "rows", reason: "finish after \(rowsWritten) of \(height) rows")
        }
    }
}
