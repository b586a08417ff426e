import CropGeometry
import CropTestSupport
import Foundation
import Testing

@testable import CropEngine

/// `CropState.copyCrop(from:)`: a crop copied to another picture keeps its turns, flip, angle and proportions, and
/// every invariant, over seeded random pairs of pictures.
@Suite("Copying a crop to another picture")
struct CopyCropTests {
    /// A random edited state: random operations, then a random straighten.
    static func edited(_ rng: inout SplitMix64) throws -> CropState {
        var s = try Random.state(&rng)
        for _ in 0..<3 { try Random.operate(&s, &rng) }
        try s.setStraightenAngle(rng.double(-20...20))
        return s
    }

    @Test(
        "2,000 random pairs: same turns, flip and angle, the source crop's aspect within rounding, and every invariant")
    func randomPairs() throws {
        var rng = SplitMix64(seed: 14)
        for i in 0..<2000 {
            let source = try Self.edited(&rng)
            var target = try Random.state(&rng)
            target.copyCrop(from: source)
            let context = "case \(i): \(source) → \(target)"
            #expect(Invariants.all(target) == nil, "\(context): \(Invariants.all(target) ?? "")")
            #expect(target.quarterTurns == source.quarterTurns, "\(context)")
            #expect(target.isFlipped == source.isFlipped, "\(context)")
            #expect(abs(target.straightenAngle - source.straightenAngle) < 1e-9, "\(context)")
            let want =
                source.aspectRatio.map { Double($0.width) / Double($0.height) }
                ?? source.crop.width / source.crop.height
            let got = target.crop.width / target.crop.height
            // A free source's ratio is its pixel size's, rounded: within half a pixel on either side.
            let slack = source.aspectRatio == nil ? 1 / min(source.crop.width, source.crop.height) + 1e-9 : 1e-6
            #expect(
                abs(got / want - 1) <= slack * 2 || target.crop.width <= target.effectiveMinimumCropSize + 1e-6
                    || target.crop.height <= target.effectiveMinimumCropSize + 1e-6,
                "\(context): ratio \(got) vs \(want)")
            if case .ratio(let r) = source.aspectLock { #expect(target.aspectLock == .ratio(r), "\(context)") }
            if source.aspectLock == .free { #expect(target.aspectLock == .free, "\(context)") }
            if Invariants.all(target) != nil || target.quarterTurns != source.quarterTurns { return }
        }
    }

    @Test("onto a picture of the same displayed size, the crop comes back within a pixel")
    func sameSizeIsIdentity() throws {
        var rng = SplitMix64(seed: 15)
        for i in 0..<2000 {
            let source = try Self.edited(&rng)
            var target = try CropState(
                sourceSize: source.sourceSize, orientation: source.sourceOrientation,
                minimumCropSize: source.minimumCropSize)
            target.copyCrop(from: source)
            let a = source.crop, b = target.crop
            let d = max(abs(a.minX - b.minX), abs(a.minY - b.minY), abs(a.maxX - b.maxX), abs(a.maxY - b.maxY))
            #expect(d <= 1, "case \(i): \(a) became \(b)")
            #expect(target.quarterTurns == source.quarterTurns && target.isFlipped == source.isFlipped)
            if d > 1 { return }
        }
    }

    @Test(
        "a 1:1 centre-left crop of a 3000×2000 landscape lands centre-left on a 1200×1600 portrait, at the same share")
    func landscapeToPortrait() throws {
        var source = try CropState(sourceSize: PixelSize(validWidth: 3000, height: 2000))
        let square = try AspectRatio(1, 1)
        source.setAspectLock(.ratio(square))
        try source.setCrop(Rect(x: 300, y: 500, width: 1000, height: 1000))
        var target = try CropState(sourceSize: PixelSize(validWidth: 1600, height: 1200), orientation: .rightTop)
        target.copyCrop(from: source)
        // The portrait is 1200×1600 upright; 1/6 of the area is 320,000 px², a square of 565.7 px.
        #expect(target.uprightSize == PixelSize(validWidth: 1200, height: 1600))
        #expect(abs(target.crop.width - 565.685) < 0.01 && abs(target.crop.height - 565.685) < 0.01)
        #expect(abs(target.cropContentCenter.x - 800.0 / 3000 * 1200) < 1e-6)
        #expect(abs(target.cropContentCenter.y - 800) < 1e-6)
        #expect(target.aspectLock == AspectLock.ratio(square))
    }

    @Test("a crop that cannot fit the other picture's straightened frame is moved, then shrunk, keeping its aspect")
    func tooLargeIsMovedAndShrunk() throws {
        var source = try CropState(sourceSize: PixelSize(validWidth: 2000, height: 1000))
        source.setAspectLock(.ratio(try AspectRatio(2, 1)))
        try source.setStraightenAngle(10)
        var target = try CropState(sourceSize: PixelSize(validWidth: 1000, height: 1000))
        target.copyCrop(from: source)
        #expect(Invariants.all(target) == nil)
        #expect(abs(target.crop.width / target.crop.height - 2) < 1e-9)
        #expect(target.straightenAngle == 10)
    }
}
