#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension PixelBuffer {
    /// How ``obscuring(x:y:width:height:style:)`` hides a region.
    public enum ObscureStyle: Hashable, Sendable {
        /// A Gaussian blur of this standard deviation, in pixels.
        case blur(sigma: Double)
        /// Squares of this side, in pixels, each filled with its mean colour.
        case pixelate(block: Int)
    }

    /// This picture with the rectangle `x, y, width × height` (clipped to the picture) blurred or pixelated, and
    /// every pixel outside it unchanged, sample for sample.
    ///
    /// The blur reads the pixels around the rectangle (clamped at the picture's edges), so its edge does not darken
    /// or fringe; both weigh colour by alpha (a transparent pixel's colour does not bleed in). Samples are rounded to
    /// the nearest value.
    ///
    /// - Complexity: O(area · sigma) for a blur, O(area) for pixelation.
    public func obscuring(x: Int, y: Int, width: Int, height: Int, style: ObscureStyle) -> PixelBuffer {
        var result = self
        result.obscure(x: x, y: y, width: width, height: height, style: style)
        return result
    }

    /// ``obscuring(x:y:width:height:style:)`` in place: no copy of the picture when this buffer is its only owner
    /// (several regions of one picture cost one copy at most).
    public mutating func obscure(x: Int, y: Int, width: Int, height: Int, style: ObscureStyle) {
        let x0 = Swift.max(0, x), y0 = Swift.max(0, y)
        let x1 = Swift.min(self.width, x + Swift.max(0, width)), y1 = Swift.min(self.height, y + Swift.max(0, height))
        guard x0 < x1, y0 < y1 else { return }
        let channels = format.channelCount, alpha = format.layout.hasAlpha ? channels - 1 : -1
        let maximum = Float(format.depth.maxValue)
        // The region and, for a blur, a margin of 3σ around it, as premultiplied floats.
        let margin: Int
        switch style {
        case .blur(let sigma): margin = Swift.max(1, Int((3 * Swift.max(sigma, 0.1)).rounded(.up)))
        case .pixelate: margin = 0
        }
        let rx0 = Swift.max(0, x0 - margin), ry0 = Swift.max(0, y0 - margin)
        let rx1 = Swift.min(self.width, x1 + margin), ry1 = Swift.min(self.height, y1 + margin)
        let rw = rx1 - rx0, rh = ry1 - ry0
        var values = [Float](repeating: 0, count: rw * rh * channels)
        withUnsafeRows { rows in
            for j in 0..<rh {
                for i in 0..<rw {
                    let o = (j * rw + i) * channels, px = (rx0 + i) * channels
                    for c in 0..<channels {
                        values[o + c] =
                            rows.format.depth == .eight
                            ? Float(rows.row8(ry0 + j)[px + c]) : Float(rows.row16(ry0 + j)[px + c])
                    }
                    if alpha >= 0 {
                        let a = values[o + alpha] / maximum
                        for c in 0..<channels where c != alpha { values[o + c] *= a }
                    }
                }
            }
        }
        switch style {
        case .blur(let sigma):
            Self.gaussian(&values, width: rw, height: rh, channels: channels, sigma: Swift.max(sigma, 0.1))
        case .pixelate(let block):
            let side = Swift.max(1, block)
            for by in stride(from: 0, to: rh, by: side) {
                for bx in stride(from: 0, to: rw, by: side) {
                    let w = Swift.min(side, rw - bx), h = Swift.min(side, rh - by)
                    var sum = [Float](repeating: 0, count: channels)
                    for j in by..<by + h {
                        for i in bx..<bx + w {
                            for c in 0..<channels { sum[c] += values[(j * rw + i) * channels + c] }
                        }
                    }
                    for c in 0..<channels { sum[c] /= Float(w * h) }
                    for j in by..<by + h {
                        for i in bx..<bx + w {
                            for c in 0..<channels { values[(j * rw + i) * channels + c] = sum[c] }
                        }
                    }
                }
            }
        }
        withUnsafeMutableRows { rows in
            for j in (y0 - ry0)..<(y1 - ry0) {
                for i in (x0 - rx0)..<(x1 - rx0) {
                    let o = (j * rw + i) * channels, px = (rx0 + i) * channels
                    let a = alpha >= 0 ? values[o + alpha] / maximum : 1
                    for c in 0..<channels {
                        var v = values[o + c]
                        if c != alpha && alpha >= 0 { v = a > 0 ? v / a : 0 }
                        let sample = Swift.min(Swift.max(v.rounded(), 0), maximum)
                        if rows.format.depth == .eight {
                            rows.row8(ry0 + j)[px + c] = UInt8(sample)
                        } else {
                            rows.row16(ry0 + j)[px + c] = UInt16(sample)
                        }
                    }
                }
            }
        }
    }

    /// A separable Gaussian blur of `values` (`width × height` pixels of `channels` floats), edges clamped.
    private static func gaussian(_ values: inout [Float], width: Int, height: Int, channels: Int, sigma: Double) {
        let radius = Swift.max(1, Int((3 * sigma).rounded(.up)))
        var kernel = (-radius...radius).map { Float(exp(-Double($0 * $0) / (2 * sigma * sigma))) }
        let total = kernel.reduce(0, +)
        kernel = kernel.map { $0 / total }
        var temp = values
        for j in 0..<height {
            for i in 0..<width {
                for c in 0..<channels {
                    var sum: Float = 0
                    for k in -radius...radius {
                        sum +=
                            kernel[k + radius]
                            * values[(j * width + Swift.min(Swift.max(i + k, 0), width - 1)) * channels + c]
                    }
                    temp[(j * width + i) * channels + c] = sum
                }
            }
        }
        for j in 0..<height {
            for i in 0..<width {
                for c in 0..<channels {
                    var sum: Float = 0
                    for k in -radius...radius {
                        sum +=
                            kernel[k + radius]
                            * temp[(Swift.min(Swift.max(j + k, 0), height - 1) * width + i) * channels + c]
                    }
                    values[(j * width + i) * channels + c] = sum
                }
            }
        }
    }
}
