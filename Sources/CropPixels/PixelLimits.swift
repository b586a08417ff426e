/// Limits that protect a process from hostile or accidental giant images.
///
/// Every decoder checks the header against these limits *before* allocating pixel memory, so a 100 000 × 100 000
/// "decompression bomb" costs a few bytes of header parsing, not 30 GB.
public struct PixelLimits: Hashable, Sendable {
    /// The largest number of pixels (width × height) an image may have. Default: 200 megapixels.
    public var maxPixels: Int

    /// The most pixels an animation may take to render: its frame count × its canvas's pixels (each frame is decoded
    /// and rendered whole). Default: 1 gigapixel, such as 1,000 frames of 1000 × 1000 (a 120-frame 720p clip is
    /// 111 megapixels).
    public var maxAnimationPixels: Int

    /// Creates limits; a limit below 1 counts as 1.
    public init(maxPixels: Int = 200_000_000, maxAnimationPixels: Int = 1_000_000_000) {
        self.maxPixels = Swift.max(1, maxPixels)
        self.maxAnimationPixels = Swift.max(1, maxAnimationPixels)
    }

    /// The default limits: 200 megapixels, 1 gigapixel of animation frames.
    public static let `default` = PixelLimits()

    /// No practical limit (`Int.max` pixels); memory can still run out.
    public static let unlimited = PixelLimits(maxPixels: .max, maxAnimationPixels: .max)

    /// Checks dimensions against the limits and returns the pixel count.
    ///
    /// - Throws: ``PixelError/invalidDimensions(width:height:reason:)`` for a dimension below 1,
    ///   ``PixelError/tooManyPixels(width:height:limit:)`` above the limit, ``PixelError/sizeOverflow(width:height:bytesPerPixel:)``
    ///   when width × height overflows.
    @discardableResult
    public func check(width: Int, height: Int) throws(PixelError) -> Int {
        guard width >= 1, height >= 1 else {
            throw .invalidDimensions(width: width, height: height, reason: "both dimensions must be at least 1")
        }
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow else { throw .tooManyPixels(width: width, height: height, limit: maxPixels) }
        guard count <= maxPixels else { throw .tooManyPixels(width: width, height: height, limit: maxPixels) }
        return count
    }

    /// Checks an animation of `frames` canvases of `width × height` against ``maxAnimationPixels``.
    ///
    /// - Throws: ``PixelError/tooManyAnimationPixels(frames:width:height:limit:)`` above the limit.
    public func checkAnimation(frames: Int, width: Int, height: Int) throws(PixelError) {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        let (total, overflowTotal) = pixels.multipliedReportingOverflow(by: Swift.max(1, frames))
        guard !overflow, !overflowTotal, total <= maxAnimationPixels else {
            throw .tooManyAnimationPixels(frames: frames, width: width, height: height, limit: maxAnimationPixels)
        }
    }
}
