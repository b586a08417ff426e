import CropPixels

/// Converts rows to 8-bit gray or RGB for encoders that take nothing else: 16-bit samples are rounded to 8 bits,
/// alpha is composited over a gray background. Holds one output row, reused for every call.
final class RowConverter {
    let width: Int
    let source: PixelFormat
    let target: PixelFormat
    let background: UInt8
    let outputBytesPerRow: Int
    private let row: UnsafeMutablePointer<UInt8>

    /// `target` must be `gray8` or `rgb8` with the same colour model as `source`.
    init(width: Int, from source: PixelFormat, to target: PixelFormat, background: UInt8) {
        precondition(target == .gray8 || target == .rgb8, "RowConverter targets gray8 or rgb8")
        precondition(source.layout.isColor == target.layout.isColor, "RowConverter keeps the colour model")
        self.width = width
        self.source = source
        self.target = target
        self.background = background
        outputBytesPerRow = width * target.bytesPerPixel
        row = .allocate(capacity: max(outputBytesPerRow, 1))
    }

    deinit {
        row.deallocate()
    }

    /// Converts one row; the result stays valid until the next call.
    /// - Complexity: O(width).
    func convert(_ input: UnsafeRawPointer) -> UnsafePointer<UInt8> {
        let colors = target.channelCount
        let channels = source.channelCount
        let hasAlpha = source.hasAlpha
        let bg = Int(background)
        for x in 0..<width {
            let alpha = hasAlpha ? sample(input, x * channels + colors) : 255
            for c in 0..<colors {
                let value = sample(input, x * channels + c)
                let out = hasAlpha ? (value * alpha + bg * (255 - alpha) + 127) / 255 : value
                row[x * colors + c] = UInt8(truncatingIfNeeded: out)
            }
        }
        return UnsafePointer(row)
    }

    /// Sample `index` of the row as 0…255.
    @inline(__always)
    private func sample(_ input: UnsafeRawPointer, _ index: Int) -> Int {
        if source.depth == .eight {
            return Int(input.load(fromByteOffset: index, as: UInt8.self))
        }
        let wide = Int(input.loadUnaligned(fromByteOffset: index * 2, as: UInt16.self))
        return (wide * 255 + 32_767) / 65_535
    }
}
