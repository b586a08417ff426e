import CropGeometry
@_exported import CropTestSupport  // the seeded generator, for every file of this target

@testable import CropPixels

/// Every channel layout at both depths.
let allFormats: [PixelFormat] = BitDepth.allCases.flatMap { d in ChannelLayout.allCases.map { PixelFormat($0, d) } }

/// Root-mean-square deviation of every sample from `value`.
func rmsDeviation(_ samples: [Int], from value: Double) -> Double {
    guard !samples.isEmpty else { return 0 }
    let s = samples.reduce(0.0) { $0 + (Double($1) - value) * (Double($1) - value) }
    return (s / Double(samples.count)).squareRoot()
}
