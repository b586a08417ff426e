import CPNG
import CropPixels

/// A streaming PNG encoder over libpng.
///
/// Writes the rows' own layout and depth (gray, gray+alpha, RGB, RGBA; 8 or 16 bits; 16-bit rows in native byte
/// order), non-interlaced, with libpng's adaptive filtering at the chosen zlib level. Metadata goes into `iCCP`
/// (a profile libpng rejects, for example one whose colour space does not match the image, is dropped with a
/// warning) and `eXIf` (orientation tag set to the metadata's orientation). Each row is compressed as it arrives.
package final class PNGEncoder: ImageRowEncoder {
    package let width: Int
    package let height: Int
    package let inputFormat: PixelFormat
    public private(set) var rowsWritten = 0
    public private(set) var warnings: [CodecWarning] = []

    private let handle: OpaquePointer
    /// The file the encoder writes into as it goes (`nil`: a memory buffer).
    private let output: AtomicFile?
    private var failure: CodecError?
    private var finished = false
    private var warningLog = ShimWarningLog()

    /// The largest width or height libpng writes by default.
    package static let maxDimension = 1_000_000

    /// Starts a PNG of `width × height` pixels taking rows in `inputFormat`.
    ///
    /// - Throws: ``CodecError/invalidArgument(name:reason:)`` for a size below 1 or a compression level outside
    ///   0…9, ``CodecError/unsupportedFeature(format:feature:)`` above 1 000 000 pixels in either direction.
    package init(
        width: Int, height: Int, inputFormat: PixelFormat, metadata: ImageMetadata = .none,
        options: PNGEncodeOptions = PNGEncodeOptions(), output: AtomicFile? = nil
    ) throws(CodecError) {
        try EncoderChecks.size(width: width, height: height, maxDimension: Self.maxDimension, format: .png)
        guard PNGEncodeOptions.compressionRange.contains(options.compressionLevel) else {
            throw .invalidArgument(name: "compression level", reason: "\(options.compressionLevel) is outside 0…9")
        }
        let created = output.map { ck_png_encoder_create_fd($0.descriptor) } ?? ck_png_encoder_create()
        guard let handle = created else {
            throw .resourceLimit(format: .png, message: "cannot allocate a libpng encoder")
        }
        self.handle = handle
        self.output = output
        self.width = width
        self.height = height
        self.inputFormat = inputFormat
        let exif = metadata.exifForEncoding(warnings: &warnings)
        let icc = metadata.iccProfile ?? []
        let exifBytes = exif ?? []
        guard icc.count <= Int(UInt32.max), exifBytes.count <= Int(UInt32.max) else {
            throw .invalidArgument(name: "metadata", reason: "larger than 4 GB")
        }
        var params = ck_png_encode_params()
        params.width = UInt32(width)
        params.height = UInt32(height)
        params.channels = Int32(inputFormat.channelCount)
        params.bit_depth = Int32(inputFormat.depth.rawValue)
        params.compression_level = Int32(options.compressionLevel)
        let status = icc.withUnsafeBufferPointer { iccBuffer in
            exifBytes.withUnsafeBufferPointer { exifBuffer in
                params.icc = icc.isEmpty ? nil : iccBuffer.baseAddress
                params.icc_length = UInt32(icc.count)
                params.exif = exifBytes.isEmpty ? nil : exifBuffer.baseAddress
                params.exif_length = UInt32(exifBytes.count)
                return ck_png_encoder_start(handle, &params)
            }
        }
        try check(status)
    }

    deinit {
        ck_png_encoder_destroy(handle)
    }

    /// Encodes a whole image.
    package static func encode(
        _ image: PixelBuffer, metadata: ImageMetadata = .none, options: PNGEncodeOptions = PNGEncodeOptions()
    ) throws(CodecError) -> [UInt8] {
        let encoder = try PNGEncoder(
            width: image.width, height: image.height, inputFormat: image.format, metadata: metadata, options: options)
        try encoder.writeRows(from: image, startRow: 0, count: image.height)
        return try encoder.finish()
    }

    package func writeRows(from source: UnsafeRawPointer, bytesPerRow: Int, count: Int) throws(CodecError) {
        if let failure { throw failure }
        try checkRowArguments(bytesPerRow: bytesPerRow, count: count)
        try check(
            ck_png_encoder_write_rows(handle, source.assumingMemoryBound(to: UInt8.self), bytesPerRow, UInt32(count)))
        rowsWritten += count
    }

    package var bytesWritten: Int { Int(ck_png_encoder_written(handle)) }

    package func finish<R>(_ body: (UnsafeRawBufferPointer) throws(CodecError) -> R) throws(CodecError) -> R {
        if let failure { throw failure }
        try checkAllRowsWritten()
        if !finished {
            try check(ck_png_encoder_finish(handle))
            finished = true
        }
        var length = 0
        let bytes = ck_png_encoder_output(handle, &length)
        return try body(UnsafeRawBufferPointer(start: bytes, count: bytes == nil ? 0 : length))
    }

    private func check(_ status: Int32) throws(CodecError) {
        syncWarnings()
        guard status != ShimStatus.ok else { return }
        let message = String(cString: ck_png_encoder_message(handle))
        let error = ShimStatus.error(
            status, format: .png, message: message, role: "encoder", path: output?.path)
        failure = error
        throw error
    }

    private func syncWarnings() {
        warningLog.sync(
            into: &warnings, source: .png, count: ck_png_encoder_warning_count(handle),
            capacity: Int32(CK_PNG_MAX_WARNINGS), output: true
        ) { ck_png_encoder_warning(handle, $0) }
    }
}
