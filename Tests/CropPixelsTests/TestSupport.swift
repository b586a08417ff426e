import CropGeometry
@testable import CropPixels
@_exported import CropTestSupport  // the seeded generator, for every file of this target

/// Every channel layout at both depths.
let allFormats: [PixelFormat] = BitDepth.allCases.flatMap { d in ChannelLayout.allCases.map { PixelFormat($0, d) } }

/// A buffer whose every sample is `f(x, y, channel)`.
func makeBuffer(width: Int, height: Int, format: PixelFormat, _ f: (Int, Int, Int) -> Int) throws -> PixelBuffer {
    var b = try PixelBuffer(width: width, height: height, format: format)
    for y in 0..<height {
        for x in 0..<width {
            for c in 0..<format.channelCount { b[x: x, y: y, channel: c] = f(x, y, c) }
        }
    }
    return b
}

/// A buffer of uniformly random samples.
func randomBuffer(width: Int, height: Int, format: PixelFormat, seed: UInt64) throws -> PixelBuffer {
    var rng = SplitMix64(seed: seed)
    let maxValue = format.depth.maxValue
    return try makeBuffer(width: width, height: height, format: format) { _, _, _ in
        Int(rng.next() % UInt64(maxValue + 1))
    }
}

/// Root-mean-square deviation of every sample from `value`.
func rmsDeviation(_ samples: [Int], from value: Double) -> Double {
    guard !samples.isEmpty else { return 0 }
    let s = samples.reduce(0.0) { $0 + (Double($1) - value) * (Double($1) - value) }
    return (s / Double(samples.count)).squareRoot()
}
