import CropPixels

/// The rows of a picture gathered for an encoder that compresses a whole picture at once (libwebp, libheif), widened
/// to what those take: gray becomes RGB, gray + alpha becomes RGBA, and samples are kept at 16 bits or rounded to 8.
struct GatheredRows {
    /// The rows so far, in ``format``.
    private(set) var pixels: PixelBuffer
    /// Rows gathered so far.
    private(set) var count = 0
    private let source: PixelFormat

    /// The format rows in `source` format are gathered as: RGB or RGBA, 16-bit only when `keepSixteenBits` and the
    /// source is 16-bit.
    static func format(for source: PixelFormat, keepSixteenBits: Bool) -> PixelFormat {
        PixelFormat(source.hasAlpha ? .rgba : .rgb, keepSixteenBits && source.depth == .sixteen ? .sixteen : .eight)
    }

    init(width: Int, height: Int, source: PixelFormat, keepSixteenBits: Bool) throws(CodecError) {
        self.source = source
        do {
            pixels = try PixelBuffer(
                width: width, height: height, format: Self.format(for: source, keepSixteenBits: keepSixteenBits),
                limits: .unlimited)
        } catch {
            throw CodecError(error)
        }
    }

    /// Appends `rows` rows from `input` (`bytesPerRow` apart), in the source format.
    mutating func append(_ input: UnsafeRawPointer, bytesPerRow: Int, rows: Int) {
        let channels = source.channelCount, colors = source.layout.isColor ? 3 : 1, hasAlpha = source.hasAlpha
        let wideIn = source.depth == .sixteen, wideOut = pixels.format.depth == .sixteen
        let outChannels = pixels.format.channelCount, width = pixels.width, first = count
        let packed = pixels.bytesPerPackedRow, same = source == pixels.format
        pixels.withUnsafeMutableRows { out in
            if same {  // rows already as gathered: copied whole
                for i in 0..<rows { out.row(first + i).copyMemory(from: input + i * bytesPerRow, byteCount: packed) }
                return
            }
            for i in 0..<rows {
                let row = input + i * bytesPerRow, target = out.row(first + i)
                for x in 0..<width {
                    @inline(__always) func sample(_ c: Int) -> Int {
                        let index = x * channels + c
                        return wideIn
                            ? Int(row.loadUnaligned(fromByteOffset: index * 2, as: UInt16.self))
                            : Int(row.load(fromByteOffset: index, as: UInt8.self))
                    }
                    @inline(__always) func store(_ value: Int, _ c: Int) {
                        let index = x * outChannels + c
                        if wideOut {
                            target.storeBytes(of: UInt16(value), toByteOffset: index * 2, as: UInt16.self)
                        } else {
                            target.storeBytes(
                                of: UInt8(wideIn ? (value * 255 + 32_767) / 65_535 : value), toByteOffset: index,
                                as: UInt8.self)
                        }
                    }
                    for c in 0..<3 { store(sample(colors == 3 ? c : 0), c) }
                    if hasAlpha { store(sample(colors), 3) }
                }
            }
        }
        count += rows
    }
}
