import Testing
@testable import CropGeometry

@Suite("Orientation")
struct OrientationTests {
    /// The EXIF definitions, written out independently of the implementation: where the stored pixel centre
    /// (x, y) of a w×h picture lands once displayed.
    static func exifReference(_ o: Orientation, x: Double, y: Double, w: Double, h: Double) -> Point {
        switch o {
        case .topLeft: Point(x: x, y: y)
        case .topRight: Point(x: w - x, y: y)
        case .bottomRight: Point(x: w - x, y: h - y)
        case .bottomLeft: Point(x: x, y: h - y)
        case .leftTop: Point(x: y, y: x)
        case .rightTop: Point(x: h - y, y: x)
        case .rightBottom: Point(x: h - y, y: w - x)
        case .leftBottom: Point(x: y, y: w - x)
        }
    }

    @Test("transform matches the EXIF definition for every orientation and odd/even size",
          arguments: Orientation.allCases)
    func transformMatchesDefinition(_ o: Orientation) {
        for (w, h) in [(4.0, 3.0), (5.0, 3.0), (7.0, 8.0), (1.0, 9.0)] {
            let t = o.transform(storedSize: Size(width: w, height: h))
            for (x, y) in [(0.0, 0.0), (0.5, 0.5), (w, 0), (0, h), (1.25, 2.75)] {
                #expect(t.apply(to: Point(x: x, y: y)).isApproximatelyEqual(
                    to: Self.exifReference(o, x: x, y: y, w: w, h: h)))
            }
            let displayed = o.displayedSize(of: Size(width: w, height: h))
            #expect(displayed == (o.rawValue >= 5 ? Size(width: h, height: w) : Size(width: w, height: h)))
            let inv = o.inverseTransform(storedSize: Size(width: w, height: h))
            #expect(t.concatenating(inv).isApproximatelyEqual(to: .identity))
        }
    }

    @Test("composition is closed, associative, and every element has an inverse")
    func groupLaws() {
        let all = Orientation.allCases
        let size = Size(width: 5, height: 3)
        for a in all {
            #expect(a.concatenating(a.inverse) == .up)
            #expect(a.inverse.concatenating(a) == .up)
            #expect(a.concatenating(.up) == a && Orientation.up.concatenating(a) == a)
            for b in all {
                // The composed element acts on points as the two transforms one after the other.
                let ab = a.concatenating(b)
                let viaTransforms = a.transform(storedSize: size)
                    .concatenating(b.transform(storedSize: a.displayedSize(of: size)))
                #expect(ab.transform(storedSize: size).isApproximatelyEqual(to: viaTransforms))
                for c in all {
                    #expect(ab.concatenating(c) == a.concatenating(b.concatenating(c)))
                }
            }
        }
    }

    @Test("four quarter turns and two flips are the identity")
    func turnsAndFlips() {
        for o in Orientation.allCases {
            #expect(o.rotatedClockwise().rotatedClockwise().rotatedClockwise().rotatedClockwise() == o)
            #expect(o.rotatedClockwise().rotatedCounterClockwise() == o)
            #expect(o.flippedHorizontally().flippedHorizontally() == o)
            #expect(o.flippedVertically().flippedVertically() == o)
            #expect(o.flippedHorizontally().flippedVertically() == o.rotatedClockwise().rotatedClockwise())
        }
    }

    @Test("rects map to displayed coordinates and back exactly", arguments: Orientation.allCases)
    func rectRoundTrip(_ o: Orientation) {
        for size in [Size(width: 6, height: 4), Size(width: 7, height: 5)] {
            let r = Rect(x: 1, y: 0.5, width: 2, height: 3)
            let shown = o.displayedRect(fromStored: r, storedSize: size)
            #expect(shown.size == (o.swapsDimensions ? r.size.transposed : r.size))
            #expect(o.storedRect(fromDisplayed: shown, storedSize: size).isApproximatelyEqual(to: r))
        }
    }
}

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
