import CropGeometry

extension PixelBuffer {
    /// The pixels inside `rect`, copied into a new buffer.
    ///
    /// A fractional rectangle rounds outwards to whole pixels (an edge within 10⁻⁶ of an integer snaps to it); a
    /// rectangle partly outside the image is clamped to it.
    ///
    /// - Throws: ``PixelError/invalidRect(_:)`` when `rect` is not finite, is empty, or does not overlap the image.
    /// - Complexity: O(pixels in the result).
    public func cropped(to rect: Rect) throws(PixelError) -> PixelBuffer {
        guard rect.isFinite else { throw .invalidRect("\(rect) is not finite") }
        guard rect.width > 0, rect.height > 0 else { throw .invalidRect("\(rect) is empty") }
        let bounds = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        guard let clipped = rect.integral().intersection(bounds) else {
            throw .invalidRect("\(rect) does not overlap the \(width)×\(height) image")
        }
        return try cropped(
            x: Int(clipped.minX), y: Int(clipped.minY), width: Int(clipped.width), height: Int(clipped.height))
    }

    /// The pixels of the whole-pixel rectangle `(x, y, width, height)`, which must lie inside the image.
    ///
    /// - Throws: ``PixelError/invalidRect(_:)`` when the rectangle is empty or not inside the image.
    /// - Complexity: O(pixels in the result).
    public func cropped(x: Int, y: Int, width w: Int, height h: Int) throws(PixelError) -> PixelBuffer {
        guard w >= 1, h >= 1, x >= 0, y >= 0, x <= width - w, y <= height - h else {
            throw .invalidRect("(\(x), \(y), \(w)×\(h)) is empty or not inside the \(width)×\(height) image")
        }
        if x == 0, y == 0, w == width, h == height { return self }
        var out = PixelBuffer(derivedWidth: w, height: h, format: format)
        let bpp = format.bytesPerPixel
        withUnsafeRows { src in
            out.withUnsafeMutableRows { dst in
                for row in 0..<h {
                    dst.row(row).copyMemory(from: src.row(y + row) + x * bpp, byteCount: w * bpp)
                }
            }
        }
        return out
    }

    /// Allocates a zeroed buffer for the result of an operation on an existing image. Derived sizes are bounded by
    /// what the caller already validated, so only running out of memory can fail, which traps as an allocation of
    /// an `Array` would.
    init(derivedWidth width: Int, height: Int, format: PixelFormat) {
        do {
            try self.init(width: width, height: height, format: format, limits: .unlimited)
        } catch {
            fatalError("cannot allocate a \(width)×\(height) \(format) buffer: \(error)")
        }
    }
}
