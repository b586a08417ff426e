import CropGeometry
import CropTestSupport
import Testing

@testable import CropEngine

@Suite("Orientation × quarter turn × flip × odd/even size")
struct OrientationCompositionTests {
    static let sizes = [
        PixelSize(validWidth: 4, height: 6), PixelSize(validWidth: 5, height: 7), PixelSize(validWidth: 4, height: 7),
        PixelSize(validWidth: 5, height: 6), PixelSize(validWidth: 1, height: 1),
        PixelSize(validWidth: 1, height: 2), PixelSize(validWidth: 3, height: 1),
    ]

    /// Every EXIF orientation, every number of user quarter turns, every flip.
    static var combinations: [(exif: Orientation, turns: Int, flip: FlipAxis?)] {
        Orientation.allCases.flatMap { exif in
            (0..<4).flatMap { turns in [nil, FlipAxis.horizontal, .vertical].map { (exif, turns, $0) } }
        }
    }

    @Test("sizes swap exactly when an odd number of quarter turns is involved, and mapping there and back is exact")
    func exhaustive() throws {
        for (exif, turns, flip) in Self.combinations {
            for size in Self.sizes {
                var state = try CropState(sourceSize: size, orientation: exif)
                for _ in 0..<turns { state.rotate(.clockwise, aspectPolicy: .followPicture) }
                if let flip { state.flip(flip) }
                let combined = state.orientation
                // Sizes: an odd total of quarter turns swaps width and height, and nothing else does.
                let swaps = (exif.quarterTurnsClockwise + turns) % 2 == 1
                #expect(combined.swapsDimensions == swaps)
                #expect(state.uprightSize == (swaps ? size.transposed : size))
                // The composed element acts as the steps one after the other.
                var stepwise = exif.transform(storedSize: size.size)
                var current = exif.displayedSize(of: size.size)
                var element = Orientation.up
                for _ in 0..<turns { element = element.rotatedClockwise() }
                if flip == .horizontal { element = element.flippedHorizontally() }
                if flip == .vertical { element = element.flippedVertically() }
                stepwise = stepwise.concatenating(element.transform(storedSize: current))
                current = element.displayedSize(of: current)
                #expect(combined.transform(storedSize: size.size) == stepwise)
                // Integer rects map to integer rects and back, exactly.
                for rect in [
                    Rect(x: 0, y: 0, width: 1, height: 1), Rect(size: size.size),
                    Rect(x: 0, y: 0, width: Double(size.width), height: 1),
                ] {
                    let shown = combined.displayedRect(fromStored: rect, storedSize: size.size)
                    #expect(shown.size == (swaps ? rect.size.transposed : rect.size))
                    #expect(combined.storedRect(fromDisplayed: shown, storedSize: size.size) == rect)
                }
                // The untouched render plan is an exact pixel permutation of the whole image.
                let plan = state.renderPlan()
                #expect(plan.outputSize == state.uprightSize)
                #expect(plan.isPixelExact)
                var seen = Set<Int>()
                for j in 0..<plan.outputSize.height {
                    for i in 0..<plan.outputSize.width {
                        let p = plan.transform.apply(to: Point(x: Double(i) + 0.5, y: Double(j) + 0.5))
                        let (x, y) = (p.x - 0.5, p.y - 0.5)
                        #expect(
                            x == x.rounded() && y == y.rounded() && x >= 0 && y >= 0
                                && Int(x) < size.width && Int(y) < size.height)
                        seen.insert(Int(y) * size.width + Int(x))
                    }
                }
                #expect(seen.count == size.pixelCount)
            }
        }
    }

    @Test("one convention: an orientation's turns and mirror are \"turn clockwise, then mirror\", step by step")
    func turnThenMirror() throws {
        for o in Orientation.allCases {
            #expect((0...3).contains(o.quarterTurnsClockwise))
            var stepwise = Orientation.up
            for _ in 0..<o.quarterTurnsClockwise { stepwise = stepwise.rotatedClockwise() }
            if o.isMirrored { stepwise = stepwise.flippedHorizontally() }
            #expect(stepwise == o, "\(o)")
            #expect(Orientation(quarterTurnsClockwise: o.quarterTurnsClockwise, mirrored: o.isMirrored) == o)
        }
        // The EXIF names agree: 5 (transpose) is a clockwise turn then a mirror, 7 (transverse) three turns then one.
        #expect(Orientation(quarterTurnsClockwise: 1, mirrored: true) == .leftTop)
        #expect(Orientation(quarterTurnsClockwise: 3, mirrored: true) == .rightBottom)
    }

    @Test("a recipe's turns and flips: the closed form equals the step-by-step composition, for every combination")
    func recipeComposition() throws {
        for turns in -4...7 {
            for flipH in [false, true] {
                for flipV in [false, true] {
                    var stepwise = Orientation.up
                    for _ in 0..<(((turns % 4) + 4) % 4) { stepwise = stepwise.rotatedClockwise() }
                    if flipH { stepwise = stepwise.flippedHorizontally() }
                    if flipV { stepwise = stepwise.flippedVertically() }
                    #expect(
                        CropState.compose(turns: turns, flipHorizontal: flipH, flipVertical: flipV) == stepwise,
                        "turns \(turns) h \(flipH) v \(flipV)")
                }
            }
        }
        // A state reports its user element in the same convention, and its recipe spells it canonically.
        for o in Orientation.allCases {
            var state = try CropState(sourceSize: PixelSize(validWidth: 30, height: 20))
            for _ in 0..<o.quarterTurnsClockwise { state.rotate(.clockwise, aspectPolicy: .followPicture) }
            if o.isMirrored { state.flip(.horizontal) }
            #expect(state.userOrientation == o)
            #expect(state.quarterTurns == o.quarterTurnsClockwise && state.isFlipped == o.isMirrored)
            #expect(state.recipe.quarterTurns == o.quarterTurnsClockwise && state.recipe.flipHorizontal == o.isMirrored)
        }
    }
}
