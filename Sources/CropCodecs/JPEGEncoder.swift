import CJPEG
import CropPixels

/// A streaming JPEG encoder over libjpeg-turbo.
///
/// Accepts rows in any ``PixelFormat``: gray and RGB 8-bit rows go to libjpeg as they are; 16-bit samples are
/// rounded to 8 bits and alpha is composited over ``JPEGEncodeOptions/background``, one row at a time. Metadata is
/// written right after the JFIF header: EXIF in APP1 (with the orientation tag set to the metadata's orientation,
/// dropped with a warning if it does not fit in one segment), the ICC profile in APP2 segments.
///
/// Baseline encoding with standard Huffman tables keeps only a few rows in memory; progressive or optimised
/// encoding makes libjpeg buffer the whole image's coefficients (2 bytes per sample).
package final class JPEGEncoder: ImageRowEncoder {
    package let width: Int
    package let height: Int
    package let inputFormat: PixelFormat
    public private(set) var rowsWritten = 0
    public private(set) var warnings: [CodecWarning] = []

    private let handle: OpaquePointer
    /// The file the encoder writes into as it goes (`nil`: a memory buffer).
    private let output: AtomicFile?
    private let converter: RowConverter?
    private var failure: CodecError?
    private var finished = false

    /// The largest width or height a JPEG can have.
    package static let maxDimension = 65_500

    /// Starts a JPEG of `width × height` pixels taking rows in `inputFormat`.
    ///
    /// - Throws: ``CodecError/invalidArgument(name:reason:)`` for a size below 1 or a quality outside 1…100,
    ///   ``CodecError/unsupportedFeature(format:feature:)`` above 65 500 pixels in either direction.
    package init(
        width: Int, height: Int, inputFormat: PixelFormat, metadata: ImageMetadata = .none,
        options: JPEGEncodeOptions = JPEGEncodeOptions(), output: AtomicFile? = nil
    ) throws(CodecError) {
        try EncoderChecks.size(width: width, height: height, maxDimension: Self.maxDimension, format: .jpeg)
        try EncoderChecks.settings(format: .jpeg, quality: options.quality)
        let created = output.map { ck_jpeg_encoder_create_fd($0.descriptor) } ?? ck_jpeg_encoder_create()
        guard let handle = created else {
            throw .resourceLimit(format: .jpeg, message: "cannot allocate a libjpeg encoder")
        }
        self.handle = handle
        self.output = output
        self.width = width
        self.height = height
        self.inputFormat = inputFormat
        let target: PixelFormat = inputFormat.layout.isColor ? .rgb8 : .gray8
        converter =
            target == inputFormat
            ? nil : RowConverter(width: width, from: inputFormat, to: target, background: options.background)
        var params = ck_jpeg_encode_params()
        params.width = UInt32(width)
        params.height = UInt32(height)
        params.components = Int32(target.channelCount)
        params.quality = Int32(options.quality)
        params.subsampling = Self.shimSubsampling(options)
        params.progressive = options.progressive ? 1 : 0
        params.optimize_coding = options.optimizeHuffman ? 1 : 0
        params.restart_interval = Int32(clamping: min(max(options.restartInterval, 0), 65535))
        params.stripes = options.stripes.shimMode
        try check(ck_jpeg_encoder_start(handle, &params))
        try writeMetadata(metadata)
    }

    deinit {
        ck_jpeg_encoder_destroy(handle)
    }

    /// Encodes a whole image.
    package static func encode(
        _ image: PixelBuffer, metadata: ImageMetadata = .none, options: JPEGEncodeOptions = JPEGEncodeOptions()
    ) throws(CodecError) -> [UInt8] {
        let encoder = try JPEGEncoder(
            width: image.width, height: image.height, inputFormat: image.format, metadata: metadata, options: options)
        try encoder.writeRows(from: image, startRow: 0, count: image.height)
        return try encoder.finish()
    }

    package func writeRows(from source: UnsafeRawPointer, bytesPerRow: Int, count: Int) throws(CodecError) {
        if let failure { throw failure }
        try checkRowArguments(bytesPerRow: bytesPerRow, count: count)
        if let converter {
            for i in 0..<count {
                let row = converter.convert(source + i * bytesPerRow)
                try check(ck_jpeg_encoder_write_rows(handle, row, converter.outputBytesPerRow, 1))
                rowsWritten += 1
            }
        } else {
            try check(
                ck_jpeg_encoder_write_rows(
                    handle, source.assumingMemoryBound(to: UInt8.self), bytesPerRow, UInt32(count)))
            rowsWritten += count
        }
    }

    /// The stripes a striped encode of a `width`×`height` picture with `options` uses (``JPEGStripes``): their
    /// height in pixel rows and the restart interval that makes one encoder write the same file; `nil` when such a
    /// picture cannot be striped.
    package static func stripeLayout(width: Int, height: Int, options: JPEGEncodeOptions, components: Int = 3)
        -> (rows: Int, restartInterval: Int)?
    {
        var params = ck_jpeg_encode_params()
        params.width = UInt32(clamping: width)
        params.height = UInt32(clamping: height)
        params.components = Int32(components)
        params.subsampling = shimSubsampling(options)
        var rows: UInt32 = 0, restartInterval: UInt32 = 0
        guard ck_jpeg_stripe_layout(&params, &rows, &restartInterval) != 0 else { return nil }
        return (Int(rows), Int(restartInterval))
    }

    /// The shim's code for the options' subsampling (its luma's sampling factor).
    private static func shimSubsampling(_ options: JPEGEncodeOptions) -> Int32 {
        switch options.effectiveSubsampling {
        case .s444: 0
        case .s422: 1
        case .s420: 2
        }
    }

    package var bytesWritten: Int { Int(ck_jpeg_encoder_written(handle)) }

    package func finish<R>(_ body: (UnsafeRawBufferPointer) throws(CodecError) -> R) throws(CodecError) -> R {
        if let failure { throw failure }
        try checkAllRowsWritten()
        if !finished {
            try check(ck_jpeg_encoder_finish(handle))
            finished = true
        }
        var length = 0
        let bytes = ck_jpeg_encoder_output(handle, &length)
        return try body(UnsafeRawBufferPointer(start: bytes, count: bytes == nil ? 0 : length))
    }

    private func writeMetadata(_ metadata: ImageMetadata) throws(CodecError) {
        if let exif = metadata.exifForEncoding(warnings: &warnings) {
            let payload = EXIF.jpegSegmentHeader + exif
            if payload.count <= 65_533 {
                try writeMarker(Int32(JPEG_APP0) + 1, payload)
            } else {
                warnings.append(
                    CodecWarning(.exif, "EXIF block of \(exif.count) bytes does not fit in APP1; dropped", output: true)
                )
            }
        }
        if let icc = metadata.iccProfile {
            if let segments = ICCProfileChunks.split(icc) {
                for segment in segments { try writeMarker(Int32(JPEG_APP0) + 2, segment) }
            } else {
                warnings.append(
                    CodecWarning(
                        .icc, "ICC profile of \(icc.count) bytes cannot be stored in JPEG; dropped", output: true))
            }
        }
    }

    private func writeMarker(_ marker: Int32, _ payload: [UInt8]) throws(CodecError) {
        let status = payload.withUnsafeBufferPointer {
            ck_jpeg_encoder_write_marker(handle, marker, $0.baseAddress, $0.count)
        }
        try check(status)
    }

    private func check(_ status: Int32) throws(CodecError) {
        guard status != ShimStatus.ok else { return }
        let message = String(cString: ck_jpeg_encoder_message(handle))
        let error = ShimStatus.error(
            status, format: .jpeg, message: message, role: "encoder", path: output?.path)
        failure = error
        throw error
    }
}
