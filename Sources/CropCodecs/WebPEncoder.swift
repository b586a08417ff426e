import CWebP
import CropPixels

/// A WebP encoder over libwebp (loaded at run time; see ``WebPLibrary``).
///
/// Takes rows of any pixel format: gray becomes RGB, 16-bit samples are rounded to 8 bits, alpha is kept (WebP
/// stores it; the colour under fully transparent pixels is kept only with ``WebPEncodeOptions/exact``). libwebp
/// encodes a whole picture, so rows are gathered (as 8-bit RGB or RGBA) and compressed by ``finish(_:)``. The ICC
/// profile and the EXIF block (its orientation tag set to the metadata's orientation) are written in ICCP and EXIF
/// chunks of the extended format. WebP allows at most 16383 pixels per side.
package final class WebPEncoder: ImageRowEncoder {
    package let width: Int
    package let height: Int
    package let inputFormat: PixelFormat
    package private(set) var rowsWritten = 0
    package private(set) var warnings: [CodecWarning] = []

    private let options: WebPEncodeOptions
    private let output: AtomicFile?
    private let icc: [UInt8]?
    private let exif: [UInt8]?
    private var stage: Stage

    /// Rows gathered (8-bit RGB or RGBA), then the file, or the error that ended it.
    private enum Stage {
        case gathering(PixelBuffer)
        case encoded([UInt8])
        case failed(CodecError)
    }

    /// The largest width or height WebP can store.
    package static let maxDimension = 16_383

    /// Starts a WebP of `width × height` pixels taking rows in `inputFormat`.
    ///
    /// - Throws: ``CodecError/invalidArgument(name:reason:)`` for a size below 1, a quality outside 0…100 or an
    ///   effort outside 0…6; ``CodecError/unsupportedFeature(format:feature:)`` above 16383 pixels per side;
    ///   ``CodecError/libraryUnavailable(format:reason:)`` when libwebp cannot be loaded.
    package init(
        width: Int, height: Int, inputFormat: PixelFormat, metadata: ImageMetadata = .none,
        options: WebPEncodeOptions = WebPEncodeOptions(), output: AtomicFile? = nil
    ) throws(CodecError) {
        try EncoderChecks.size(width: width, height: height, maxDimension: Self.maxDimension, format: .webp)
        guard (0...100).contains(options.quality) else {
            throw .invalidArgument(name: "quality", reason: "\(options.quality) is outside 0…100")
        }
        guard (0...6).contains(options.effort) else {
            throw .invalidArgument(name: "effort", reason: "\(options.effort) is outside 0…6")
        }
        var message = [CChar](repeating: 0, count: Int(CK_WEBP_MESSAGE_LENGTH) + 1)
        if ck_webp_load(&message) != CK_WEBP_OK {
            throw .libraryUnavailable(format: .webp, reason: String(cString: message))
        }
        self.width = width
        self.height = height
        self.inputFormat = inputFormat
        self.options = options
        self.output = output
        icc = metadata.iccProfile
        var warnings: [CodecWarning] = []
        exif = metadata.exifForEncoding(warnings: &warnings)
        self.warnings = warnings
        do {
            stage = .gathering(try PixelBuffer(
                width: width, height: height, format: inputFormat.hasAlpha ? .rgba8 : .rgb8, limits: .unlimited))
        } catch {
            throw CodecError(error)
        }
    }

    /// Encodes a whole image.
    package static func encode(
        _ image: PixelBuffer, metadata: ImageMetadata = .none, options: WebPEncodeOptions = WebPEncodeOptions()
    ) throws(CodecError) -> [UInt8] {
        let encoder = try WebPEncoder(
            width: image.width, height: image.height, inputFormat: image.format, metadata: metadata, options: options)
        try encoder.writeRows(from: image, startRow: 0, count: image.height)
        return try encoder.finish()
    }

    package func writeRows(from source: UnsafeRawPointer, bytesPerRow: Int, count: Int) throws(CodecError) {
        if case .failed(let error) = stage { throw error }
        guard case .gathering(var pixels) = stage else {
            throw .invalidArgument(name: "rows", reason: "written after finish")
        }
        try checkRowArguments(bytesPerRow: bytesPerRow, count: count)
        stage = .encoded([])  // drop the stage's reference so the rows are written in place, not copied
        defer { stage = .gathering(pixels) }
        let channels = inputFormat.channelCount, colors = inputFormat.layout.isColor ? 3 : 1
        let hasAlpha = inputFormat.hasAlpha, wide = inputFormat.depth == .sixteen
        let outChannels = pixels.format.channelCount
        let width = width, first = rowsWritten
        pixels.withUnsafeMutableRows { rows in
            for i in 0..<count {
                let input = source + i * bytesPerRow
                let out = rows.row(first + i).assumingMemoryBound(to: UInt8.self)
                for x in 0..<width {
                    @inline(__always) func sample(_ c: Int) -> UInt8 {
                        let index = x * channels + c
                        guard wide else { return input.load(fromByteOffset: index, as: UInt8.self) }
                        let value = Int(input.loadUnaligned(fromByteOffset: index * 2, as: UInt16.self))
                        return UInt8((value * 255 + 32_767) / 65_535)
                    }
                    let o = x * outChannels
                    for c in 0..<3 { out[o + c] = sample(colors == 3 ? c : 0) }
                    if hasAlpha { out[o + 3] = sample(colors) }
                }
            }
        }
        rowsWritten += count
    }

    package var bytesWritten: Int {
        if case .encoded(let bytes) = stage { bytes.count } else { 0 }
    }

    package func finish<R>(_ body: (UnsafeRawBufferPointer) throws(CodecError) -> R) throws(CodecError) -> R {
        switch stage {
        case .failed(let error):
            throw error
        case .gathering(let pixels):
            try checkAllRowsWritten()
            do {
                stage = .encoded(try compress(pixels))
            } catch {
                stage = .failed(error)
                throw error
            }
        case .encoded:
            break
        }
        guard case .encoded(let bytes) = stage, output == nil else {
            return try body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        // Array's `withUnsafeBytes` rethrows untyped errors; carry the typed one out in a Result.
        return try bytes.withUnsafeBytes { buffer in Result { () throws(CodecError) -> R in try body(buffer) } }.get()
    }

    /// Compresses the gathered rows, adds the metadata chunks and, for a file, writes the bytes into it.
    private func compress(_ pixels: PixelBuffer) throws(CodecError) -> [UInt8] {
        var params = ck_webp_encode_params()
        params.quality = Float(options.quality)
        params.lossless = options.lossless ? 1 : 0
        params.method = Int32(options.effort)
        params.exact = options.exact ? 1 : 0
        params.alpha = pixels.format.hasAlpha ? 1 : 0
        params.threads = 1
        let plain = try pixels.withUnsafeRows { rows throws(CodecError) in try WebPLibrary.encode(rows, params: params) }
        let file = try WebPContainer.addingMetadata(
            to: plain, width: width, height: height, hasAlpha: pixels.format.hasAlpha, iccProfile: icc, exif: exif)
        if let output {
            try file.withUnsafeBytes { buffer in
                Result { () throws(CodecError) in try FileIO.writeAll(buffer, to: output.descriptor, path: output.path) }
            }.get()
        }
        return file
    }
}
