extension PixelBuffer {
    /// Whether the format has an alpha channel (whatever its values).
    public var hasAlpha: Bool { format.hasAlpha }

    /// Whether every pixel is fully opaque: true without an alpha channel, or when every alpha sample is at its
    /// maximum.
    ///
    /// - Complexity: O(pixels); stops at the first transparent pixel.
    public var isOpaque: Bool {
        guard format.hasAlpha else { return true }
        let c = channelCount
        return withUnsafeRows { rows in
            for y in 0..<height {
                if format.depth == .eight {
                    let row = rows.row8(y)
                    for x in 0..<width where row[x * c + c - 1] != .max { return false }
                } else {
                    let row = rows.row16(y)
                    for x in 0..<width where row[x * c + c - 1] != .max { return false }
                }
            }
            return true
        }
    }

    /// The same image with an alpha channel (fully opaque); the image itself when it already has one.
    ///
    /// - Complexity: O(pixels).
    public func addingAlpha() -> PixelBuffer {
        guard !format.hasAlpha else { return self }
        var out = PixelBuffer(derivedWidth: width, height: height, format: format.with(layout: format.layout.withAlpha))
        out.fill(.white, alphaOnly: true)
        copy(into: &out, x: 0, y: 0)
        return out
    }

    /// The image inside a transparent frame `border` pixels wide (alpha is added if needed).
    ///
    /// - Throws: ``PixelError/invalidArgument(name:reason:)`` for a negative border, ``PixelError`` when the result
    ///   exceeds the default pixel limit.
    /// - Complexity: O(pixels of the result).
    public func addingTransparentBorder(_ border: Int) throws(PixelError) -> PixelBuffer {
        guard border >= 0 else { throw .invalidArgument(name: "border", reason: "\(border) is negative") }
        if border == 0 { return addingAlpha() }
        let (w, overflowW) = width.addingReportingOverflow(2 * border)
        let (h, overflowH) = height.addingReportingOverflow(2 * border)
        guard !overflowW, !overflowH else { throw .sizeOverflow(width: width, height: height, bytesPerPixel: 0) }
        var out = try PixelBuffer(width: w, height: h, format: format.with(layout: format.layout.withAlpha))
        addingAlpha().copy(into: &out, x: border, y: border)
        return out
    }

    /// The image composited over an opaque `background` colour, without its alpha channel: `colour · α +
    /// background · (1 − α)` on the stored values. The image itself when it has no alpha.
    ///
    /// - Complexity: O(pixels).
    public func flattened(over background: PixelColor) -> PixelBuffer {
        guard format.hasAlpha else { return self }
        let outFormat = format.with(layout: format.layout.withoutAlpha)
        var out = PixelBuffer(derivedWidth: width, height: height, format: outFormat)
        let c = channelCount, oc = outFormat.channelCount
        let bg = background.samples(for: outFormat)
        let maxValue = format.depth.maxValue
        withUnsafeRows { src in
            out.withUnsafeMutableRows { dst in
                for y in 0..<height {
                    for x in 0..<width {
                        let a = src.sample(x: x, y: y, channel: c - 1)
                        for ch in 0..<oc {
                            let v = src.sample(x: x, y: y, channel: ch)
                            dst.setSample(
                                (v * a + bg[ch] * (maxValue - a) + maxValue / 2) / maxValue, x: x, y: y, channel: ch)
                        }
                    }
                }
            }
        }
        return out
    }

    // MARK: Building blocks

    /// Sets every pixel to `color` (converted to the format), or only the alpha channel with `alphaOnly`.
    mutating func fill(_ color: PixelColor, alphaOnly: Bool = false) {
        let values = color.samples(for: format)
        let c = channelCount
        let w = width, h = height
        withUnsafeMutableRows { rows in
            for y in 0..<h {
                for x in 0..<w {
                    for ch in (alphaOnly ? (c - 1)..<c : 0..<c) { rows.setSample(values[ch], x: x, y: y, channel: ch) }
                }
            }
        }
    }

    /// Copies this image into `destination` with its top-left corner at `(x, y)`. The destination must have the same
    /// depth and either the same layout or the same layout with alpha (whose alpha is then left as it is); the image
    /// must fit.
    func copy(into destination: inout PixelBuffer, x: Int, y: Int) {
        precondition(destination.format.depth == format.depth)
        precondition(x >= 0 && y >= 0 && x + width <= destination.width && y + height <= destination.height)
        let c = channelCount, dc = destination.channelCount
        let sampleBytes = format.depth.bytesPerSample
        let w = width, h = height
        withUnsafeRows { src in
            destination.withUnsafeMutableRows { dst in
                for row in 0..<h {
                    let s = src.row(row), d = dst.row(y + row) + x * dc * sampleBytes
                    if dc == c {
                        d.copyMemory(from: s, byteCount: w * c * sampleBytes)
                    } else {
                        for px in 0..<w {
                            (d + px * dc * sampleBytes).copyMemory(
                                from: s + px * c * sampleBytes, byteCount: c * sampleBytes)
                        }
                    }
                }
            }
        }
    }
}

extension UnsafePixelRows {
    /// The sample at `(x, y, channel)` as an integer, whatever the depth.
    @inline(__always)
    func sample(x: Int, y: Int, channel: Int) -> Int {
        let i = x * format.channelCount + channel
        return format.depth == .eight ? Int(row8(y)[i]) : Int(row16(y)[i])
    }

    /// Stores `value` (already in range) at `(x, y, channel)`, whatever the depth.
    @inline(__always)
    func setSample(_ value: Int, x: Int, y: Int, channel: Int) {
        let i = x * format.channelCount + channel
        if format.depth == .eight {
            row8(y)[i] = UInt8(truncatingIfNeeded: value)
        } else {
            row16(y)[i] = UInt16(truncatingIfNeeded: value)
        }
    }
}
