import CropPixels

/// A buffer whose every sample is `f(x, y, channel)`.
public func makeBuffer(width: Int, height: Int, format: PixelFormat, _ f: (Int, Int, Int) -> Int) throws -> PixelBuffer
{
    var b = try PixelBuffer(width: width, height: height, format: format)
    for y in 0..<height {
        for x in 0..<width {
            for c in 0..<format.channelCount { b[x: x, y: y, channel: c] = f(x, y, c) }
        }
    }
    return b
}

/// A buffer of uniformly random samples.
public func randomBuffer(width: Int, height: Int, format: PixelFormat, seed: UInt64) throws -> PixelBuffer {
    var rng = SplitMix64(seed: seed)
    let maxValue = format.depth.maxValue
    return try makeBuffer(width: width, height: height, format: format) { _, _, _ in
        Int(rng.next() % UInt64(maxValue + 1))
    }
}
