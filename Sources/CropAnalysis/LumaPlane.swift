import CropPixels

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One channel of brightness per pixel, row by row, as `Float`s: what the line and tilt analyses read.
///
/// Invariant: `values.count == width * height`, both sides ≥ 1.
package struct LumaPlane: Sendable {
    /// Columns.
    package let width: Int
    /// Rows.
    package let height: Int
    /// Brightness per pixel, row by row.
    package private(set) var values: [Float]

    /// Creates a plane from values.
    package init(width: Int, height: Int, values: [Float]) {
        precondition(
            width >= 1 && height >= 1 && values.count == width * height, "\(values.count) values for \(width)×\(height)"
        )
        self.width = width
        self.height = height
        self.values = values
    }

    /// The Rec. 601 luma of `image` on a 0…255 scale, its transparent parts composited over mid grey, so an edge
    /// of the alpha channel reads as an edge.
    ///
    /// With `logarithmic`, each value is instead `100 · log2(luma + 8)`: equal contrast ratios give equal steps, so
    /// the edges of a dark brick wall count as much as those of a sunlit one (about 1 step per luma level at
    /// mid grey, 5 in deep shadow).
    ///
    /// - Complexity: O(pixels).
    package init(_ image: PixelBuffer, logarithmic: Bool = false) {
        width = image.width
        height = image.height
        let scale = 255 / Float(image.format.depth.maxValue)
        let color = image.format.layout.isColor, hasAlpha = image.format.layout.hasAlpha
        let alphaChannel = image.format.layout.channelCount - 1
        var values = [Float](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let r = Float(image[x: x, y: y, channel: 0]) * scale
                var luma =
                    color
                    ? 0.299 * r + 0.587 * Float(image[x: x, y: y, channel: 1]) * scale
                        + 0.114 * Float(image[x: x, y: y, channel: 2]) * scale
                    : r
                if hasAlpha {
                    let a = Float(image[x: x, y: y, channel: alphaChannel]) * scale / 255
                    luma = luma * a + 127.5 * (1 - a)
                }
                values[y * width + x] = logarithmic ? 100 * log2f(luma + 8) : luma
            }
        }
        self.values = values
    }

    /// The value at (`x`, `y`).
    package subscript(x x: Int, y y: Int) -> Float { values[y * width + x] }

    /// The plane shrunk by `factor` on both sides, each value the mean of a `factor × factor` block (a ragged last
    /// row or column of blocks is dropped). `self` when `factor` is 1.
    package func shrunk(by factor: Int) -> LumaPlane {
        precondition(factor >= 1, "factor \(factor)")
        guard factor > 1 else { return self }
        let w = Swift.max(1, width / factor), h = Swift.max(1, height / factor)
        var out = [Float](repeating: 0, count: w * h)
        let norm = 1 / Float(factor * factor)
        for y in 0..<h {
            for x in 0..<w {
                var sum: Float = 0
                for dy in 0..<Swift.min(factor, height - y * factor) {
                    let row = (y * factor + dy) * width
                    for dx in 0..<Swift.min(factor, width - x * factor) { sum += values[row + x * factor + dx] }
                }
                out[y * w + x] = sum * norm
            }
        }
        return LumaPlane(width: w, height: h, values: out)
    }
}
