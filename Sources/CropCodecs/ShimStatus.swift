import CRuntimeLibrary

/// What the C shims report, mapped to Swift once for every codec.
///
/// Every shim returns the statuses of the one table in `ck_status.h` (CRuntimeLibrary), under its own prefix
/// (`CK_JPEG_ERR_TRUNCATED = CK_ERR_TRUNCATED` …); the numbers below are that table's. CJPEG and CPNG keep the
/// library's last message in the codec handle; the shims that open a library at run time write it into a buffer the
/// caller passes, which ``run(_:)`` and ``call(format:role:_:)`` provide.
enum ShimStatus {
    static let ok = Int32(CK_OK)
    static let corrupt = Int32(CK_ERR_CORRUPT)
    static let truncated = Int32(CK_ERR_TRUNCATED)
    static let strictWarning = Int32(CK_ERR_STRICT_WARNING)
    static let unsupported = Int32(CK_ERR_UNSUPPORTED)
    static let memory = Int32(CK_ERR_MEMORY)
    static let notAnImage = Int32(CK_ERR_NOT_AN_IMAGE)
    static let tooManyScans = Int32(CK_ERR_TOO_MANY_SCANS)
    static let usage = Int32(CK_ERR_USAGE)
    static let io = Int32(CK_ERR_IO)
    /// A run-time shim's library is missing, lacks a symbol or speaks another ABI.
    static let unavailable = Int32(CK_ERR_UNAVAILABLE)

    /// Room for the message of any run-time shim (their `*_MESSAGE_LENGTH` is at most 300), with its NUL.
    private static let messageCapacity = 512

    /// Runs a run-time shim's call with a message buffer; its status and the message it wrote.
    static func run(_ body: (UnsafeMutablePointer<CChar>) -> Int32) -> (status: Int32, message: String) {
        var buffer = [CChar](repeating: 0, count: messageCapacity)
        let status = buffer.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return (status, printableMessage(bytes))
    }

    /// A library's message as text a person can read: control bytes, and every byte of a message that is not UTF-8
    /// (a fuzzed file's brand or tag quoted by the library), as `\xNN`.
    static func printableMessage(_ bytes: [UInt8]) -> String {
        // (Decoding and comparing rather than String(validating:as:), which needs macOS 15.)
        let text = String(decoding: bytes, as: UTF8.self)
        let isUTF8 = text.utf8.elementsEqual(bytes)
        if isUTF8, !bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) { return text }
        if isUTF8 {
            return text.unicodeScalars.map { scalar in
                scalar.value < 0x20 || scalar.value == 0x7F
                    ? "\\x" + ImageFormat.hexByte(UInt8(scalar.value)) : String(scalar)
            }.joined()
        }
        return ImageFormat.printable(bytes)
    }

    /// Runs a run-time shim's call and throws its failure: ``CodecError/libraryUnavailable(format:reason:)`` when the
    /// library cannot be used, otherwise as ``error(_:format:message:role:path:)`` maps the status.
    static func call(format: ImageFormat, role: String = "decoder", _ body: (UnsafeMutablePointer<CChar>) -> Int32)
        throws(CodecError)
    {
        let (status, message) = run(body)
        guard status != ok else { return }
        if status == unavailable { throw .libraryUnavailable(format: format, reason: message) }
        throw error(status, format: format, message: message, role: role)
    }

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
            .ioFailure(
                path: path ?? "(\(format) \(role))", operation: role == "decoder" ? "read" : "write", reason: message)
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
