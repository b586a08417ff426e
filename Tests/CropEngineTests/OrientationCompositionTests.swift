import Testing
import CropGeometry
@testable import CropEngine
import CropTestSupport

@Suite("Orientation × quarter turn × flip × odd/even size")
struct OrientationCompositionTests {
    static let sizes = [PixelSize(4, 6), PixelSize(5, 7), PixelSize(4, 7), PixelSize(5, 6), PixelSize(1, 1),
                        PixelSize(1, 2), PixelSize(3, 1)]

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
                for rect in [Rect(x: 0, y: 0, width: 1, height: 1), Rect(size: size.size),
                             Rect(x: 0, y: 0, width: Double(size.width), height: 1)]
                {
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
                        #expect(x == x.rounded() && y == y.rounded() && x >= 0 && y >= 0
                                && Int(x) < size.width && Int(y) < size.height)
                        seen.insert(Int(y) * size.width + Int(x))
                    }
                }
                #expect(seen.count == size.pixelCount)
            }
        }
    }

    @Test("a recipe's turns and flips decompose and recompose to the same element, for all eight")
    func canonicalDecomposition() {
        for o in Orientation.allCases {
            let (turns, mirrored) = CropState.decompose(o)
            #expect((0...3).contains(turns))
            #expect(CropState.compose(turns: turns, flipHorizontal: mirrored, flipVertical: false) == o)
        }
        // flipVertical is a horizontal flip plus a half turn.
        #expect(CropState.compose(turns: 0, flipHorizontal: false, flipVertical: true)
                == CropState.compose(turns: 2, flipHorizontal: true, flipVertical: false))
    }
}
