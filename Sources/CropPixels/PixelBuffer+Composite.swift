extension PixelBuffer {
    /// This picture with `overlay` composited over it: see ``composite(_:x:y:opacity:)``.
    ///
    /// - Throws: as ``composite(_:x:y:opacity:)``.
    public func composited(_ overlay: PixelBuffer, x: Int, y: Int, opacity: Double = 1) throws(PixelError)
        -> PixelBuffer
    {
        var out = self
        try out.composite(overlay, x: x, y: y, opacity: opacity)
        return out
    }

    /// Composites `overlay` over this picture in place, the overlay's top-left at (`x`, `y`) (parts outside are
    /// clipped) and its alpha multiplied by `opacity`: the Porter–Duff "over" operator in premultiplied arithmetic,
    /// as libvips' `composite2` (mode `over`) computes it, each sample rounded once.
    ///
    /// The picture keeps its size, bit depth and alpha (an opaque picture stays opaque); a gray picture becomes RGB
    /// when the overlay has colour. `overlay` is any 8-bit layout, straight (not premultiplied) alpha, in the same
    /// colour space as the picture. Many overlays (tiles) composite into one picture without copying it.
    ///
    /// - Throws: ``PixelError/invalidArgument(name:reason:)`` for an overlay that is not 8-bit or an opacity
    ///   outside 0…1.
    /// - Complexity: O(the overlap's pixels), plus O(pixels) when a gray picture becomes RGB.
    public mutating func composite(_ overlay: PixelBuffer, x: Int, y: Int, opacity: Double = 1) throws(PixelError) {
        guard overlay.format.depth == .eight else {
            throw .invalidArgument(name: "overlay", reason: "\(overlay.format) is not 8-bit")
        }
        guard (0...1).contains(opacity) else {
            throw .invalidArgument(name: "opacity", reason: "\(opacity) is outside 0…1")
        }
        let x0 = Swift.max(0, x), y0 = Swift.max(0, y)
        let x1 = Swift.min(width, x + overlay.width), y1 = Swift.min(height, y + overlay.height)
        guard x0 < x1, y0 < y1, opacity > 0 else { return }
        if format.depth == .eight, format.layout.isColor {
            // The common case: read an RGBA overlay in place (a streamed output composites it band by band).
            let rgba =
                overlay.format == .rgba8
                ? overlay
                : try PixelBuffer(
                    width: overlay.width, height: overlay.height, layout: .rgba, samples: overlay.rgba8Samples())
            compositeEightBitColour(rgba, x: x, y: y, clip: (x0, y0, x1, y1), opacity: opacity)
            return
        }
        let source = overlay.rgba8Samples()
        var coloured = false
        for i in stride(from: 0, to: source.count, by: 4) where source[i] != source[i + 1] || source[i] != source[i + 2]
        {
            coloured = true
            break
        }
        if !format.layout.isColor && coloured { self = try promotedToColor() }
        let channels = format.channelCount, hasAlpha = format.hasAlpha, colour = format.layout.isColor
        let sixteen = format.depth == BitDepth.sixteen
        let maximum = sixteen ? 65_535.0 : 255.0
        withUnsafeMutableRows { rows in
            for row in y0..<y1 {
                let line = rows.row(row)
                for column in x0..<x1 {
                    let s = 4 * ((row - y) * overlay.width + (column - x))
                    let sa = Double(source[s + 3]) / 255 * opacity
                    guard sa > 0 else { continue }
                    let sr = Double(source[s]) / 255, sg = Double(source[s + 1]) / 255
                    let sb = Double(source[s + 2]) / 255
                    let base = column * channels
                    func load(_ c: Int) -> Double {
                        sixteen
                            ? Double(line.load(fromByteOffset: 2 * (base + c), as: UInt16.self)) / maximum
                            : Double(line.load(fromByteOffset: base + c, as: UInt8.self)) / maximum
                    }
                    func store(_ c: Int, _ v: Double) {
                        let clamped = Swift.min(maximum, Swift.max(0, (v * maximum).rounded()))
                        if sixteen {
                            line.storeBytes(of: UInt16(clamped), toByteOffset: 2 * (base + c), as: UInt16.self)
                        } else {
                            line.storeBytes(of: UInt8(clamped), toByteOffset: base + c, as: UInt8.self)
                        }
                    }
                    let colourChannels = channels - (hasAlpha ? 1 : 0)
                    let da = hasAlpha ? load(channels - 1) : 1
                    let oa = sa + da * (1 - sa)
                    for c in 0..<colourChannels {
                        let sc = !colour || c == 0 ? sr : c == 1 ? sg : sb
                        let premultiplied = sc * sa + load(c) * da * (1 - sa)
                        store(c, oa > 0 ? premultiplied / oa : 0)
                    }
                    if hasAlpha { store(channels - 1, oa) }
                }
            }
        }
    }

    /// The common case of ``composite(_:x:y:opacity:)`` (8-bit RGB or RGBA under the overlay), with pointers and
    /// single-precision arithmetic: the same formula, the same rounding.
    private mutating func compositeEightBitColour(
        _ overlay: PixelBuffer, x: Int, y: Int, clip: (Int, Int, Int, Int), opacity: Double
    ) {
        let channels = format.channelCount, hasAlpha = format.hasAlpha
        let (x0, y0, x1, y1) = clip
        let scale = Float(opacity) / 255
        overlay.withUnsafeRows { source in
            withUnsafeMutableRows { rows in
                for row in y0..<y1 {
                    let line = rows.row8(row), marks = source.row8(row - y)
                    for column in x0..<x1 {
                        let s = 4 * (column - x)
                        let sa = Float(marks[s + 3]) * scale
                        guard sa > 0 else { continue }
                        let d = column * channels
                        if hasAlpha {
                            let keep = Float(line[d + 3]) / 255 * (1 - sa), oa = sa + keep
                            for c in 0..<3 {
                                let v = (Float(marks[s + c]) * sa + Float(line[d + c]) * keep) / oa
                                line[d + c] = UInt8(Swift.min(255, v + 0.5))
                            }
                            line[d + 3] = UInt8(Swift.min(255, oa * 255 + 0.5))
                        } else {
                            let keep = 1 - sa
                            for c in 0..<3 {
                                line[d + c] = UInt8(
                                    Swift.min(255, Float(marks[s + c]) * sa + Float(line[d + c]) * keep + 0.5))
                            }
                        }
                    }
                }
            }
        }
    }

    /// The picture with its gray channel spread to RGB (alpha and depth kept).
    func promotedToColor() throws(PixelError) -> PixelBuffer {
        let layout: ChannelLayout = format.layout == .grayAlpha ? .rgba : .rgb
        var out = try PixelBuffer(
            width: width, height: height, format: PixelFormat(layout, format.depth), limits: .unlimited)
        for row in 0..<height {
            for column in 0..<width {
                let v = self[x: column, y: row, channel: 0]
                for c in 0..<3 { out[x: column, y: row, channel: c] = v }
                if layout == .rgba { out[x: column, y: row, channel: 3] = self[x: column, y: row, channel: 1] }
            }
        }
        return out
    }
}
