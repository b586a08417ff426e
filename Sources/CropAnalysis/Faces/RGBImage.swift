import CropPixels

/// An 8-bit RGB picture, pixels interleaved row by row: what the face detector scans.
///
/// Invariant: `pixels.count == width * height * 3`.
package struct RGBImage: Sendable, Equatable {
    /// Columns.
    package let width: Int
    /// Rows.
    package let height: Int
    /// `r g b` per pixel, row by row.
    package var pixels: [UInt8]

    /// A picture from its samples.
    package init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height * 3, "\(pixels.count) samples")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// `image`'s colour as 8-bit RGB: grey repeated in the three channels, 16-bit samples by their high byte, and
    /// transparent parts composited over mid grey (so the edge of a cut-out reads as an edge, not a face's outline
    /// against black).
    package init(_ image: PixelBuffer) {
        let layout = image.format.layout, channels = layout.channelCount
        let alpha = layout.hasAlpha ? channels - 1 : -1
        let colour = layout.isColor
        var pixels = [UInt8](repeating: 0, count: image.width * image.height * 3)
        image.withUnsafeRows { rows in
            pixels.withUnsafeMutableBufferPointer { out in
                var o = 0
                for y in 0..<rows.height {
                    for x in 0..<rows.width {
                        @inline(__always) func sample(_ c: Int) -> Int {
                            rows.format.depth == .eight
                                ? Int(rows.row8(y)[x * channels + c]) : Int(rows.row16(y)[x * channels + c] >> 8)
                        }
                        let a = alpha >= 0 ? sample(alpha) : 255
                        for c in 0..<3 {
                            let v = sample(colour ? c : 0)
                            out[o + c] = UInt8((v * a + 128 * (255 - a) + 127) / 255)
                        }
                        o += 3
                    }
                }
            }
        }
        self.init(width: image.width, height: image.height, pixels: pixels)
    }

    /// The picture scaled to `width × height` by dlib's bilinear `resize_image` for RGB pictures (corner pixels
    /// aligned, samples truncated), step for step, so a pyramid level is the one dlib scans.
    package func dlibResized(width outWidth: Int, height outHeight: Int) -> RGBImage {
        guard outWidth > 0, outHeight > 0, width > 0, height > 0 else {
            return RGBImage(
                width: Swift.max(0, outWidth), height: Swift.max(0, outHeight),
                pixels: [UInt8](repeating: 0, count: Swift.max(0, outWidth) * Swift.max(0, outHeight) * 3))
        }
        let xScale = Double(width - 1) / Double(Swift.max(outWidth - 1, 1))
        let yScale = Double(height - 1) / Double(Swift.max(outHeight - 1, 1))
        // The columns' source positions, the same on every row: four at a time with the positions accumulated in
        // Float as dlib's SIMD loop does, then the last ones one by one in Double.
        var lefts = [Int](), fractions = [Float]()
        var lanes = SIMD4<Float>(
            Float(-4 * xScale), Float(-4 * xScale + xScale), Float(-4 * xScale + 2 * xScale),
            Float(-4 * xScale + 3 * xScale))
        let step = Float(4 * xScale)
        while true {
            lanes += SIMD4(repeating: step)
            let left = lanes.toInt32Truncating()
            if Int(left[3]) + 1 >= width { break }
            for k in 0..<4 {
                lefts.append(Int(left[k]))
                fractions.append(lanes[k] - Float(left[k]))
            }
            if lefts.count >= outWidth { break }
        }
        let vectorColumns = Swift.min(lefts.count, outWidth)
        var tailLefts = [Int](), tailFractions = [Double]()
        var x = -xScale + Double(vectorColumns) * xScale
        for _ in vectorColumns..<outWidth {
            x += xScale
            let left = Int(x.rounded(.down))
            tailLefts.append(left)
            tailFractions.append(x - Double(left))
        }
        var out = [UInt8](repeating: 0, count: outWidth * outHeight * 3)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                var y = -yScale
                for r in 0..<outHeight {
                    y += yScale
                    let top = Int(y.rounded(.down)), bottom = Swift.min(top + 1, height - 1)
                    let tbFrac = y - Double(top)
                    let tb = Float(tbFrac), invTB = Float(1 - tbFrac)
                    let topRow = top * width * 3, bottomRow = bottom * width * 3, outRow = r * outWidth * 3
                    for c in 0..<vectorColumns {
                        let lr = fractions[c], invLR = 1 - lr
                        let tlf = invTB * invLR, trf = invTB * lr, blf = tb * invLR, brf = tb * lr
                        let l = lefts[c] * 3, o = outRow + c * 3
                        for ch in 0..<3 {
                            let value =
                                tlf * Float(src[topRow + l + ch]) + trf * Float(src[topRow + l + 3 + ch])
                                + blf * Float(src[bottomRow + l + ch]) + brf * Float(src[bottomRow + l + 3 + ch])
                            dst[o + ch] = UInt8(truncatingIfNeeded: Int32(value))
                        }
                    }
                    for (i, c) in (vectorColumns..<outWidth).enumerated() {
                        let left = tailLefts[i], right = Swift.min(left + 1, width - 1)
                        let lrFrac = tailFractions[i]
                        for ch in 0..<3 {
                            let tl = Double(src[topRow + left * 3 + ch]), tr = Double(src[topRow + right * 3 + ch])
                            let bl = Double(src[bottomRow + left * 3 + ch]),
                                br = Double(src[bottomRow + right * 3 + ch])
                            let value =
                                (1 - tbFrac) * ((1 - lrFrac) * tl + lrFrac * tr)
                                + tbFrac * ((1 - lrFrac) * bl + lrFrac * br)
                            dst[outRow + c * 3 + ch] = UInt8(truncatingIfNeeded: Int(value))
                        }
                    }
                }
            }
        }
        return RGBImage(width: outWidth, height: outHeight, pixels: out)
    }
}

extension SIMD4<Float> {
    /// Each lane truncated toward zero (C's `(int)` cast, SSE2's `cvttps2dq`).
    @inline(__always)
    fileprivate func toInt32Truncating() -> SIMD4<Int32> {
        SIMD4<Int32>(Int32(self[0]), Int32(self[1]), Int32(self[2]), Int32(self[3]))
    }
}
