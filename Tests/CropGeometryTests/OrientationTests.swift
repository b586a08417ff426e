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

    @Test(
        "transform matches the EXIF definition for every orientation and odd/even size",
        arguments: Orientation.allCases)
    func transformMatchesDefinition(_ o: Orientation) throws {
        for (w, h) in [(4.0, 3.0), (5.0, 3.0), (7.0, 8.0), (1.0, 9.0)] {
            let t = o.transform(storedSize: Size(width: w, height: h))
            for (x, y) in [(0.0, 0.0), (0.5, 0.5), (w, 0), (0, h), (1.25, 2.75)] {
                #expect(
                    t.apply(to: Point(x: x, y: y)).isApproximatelyEqual(
                        to: Self.exifReference(o, x: x, y: y, w: w, h: h)))
            }
            let displayed = o.displayedSize(of: Size(width: w, height: h))
            #expect(displayed == (o.rawValue >= 5 ? Size(width: h, height: w) : Size(width: w, height: h)))
            let inv = o.inverseTransform(storedSize: Size(width: w, height: h))
            #expect(t.concatenating(inv).isApproximatelyEqual(to: .identity))
        }
    }

    @Test("composition is closed, associative, and every element has an inverse")
    func groupLaws() throws {
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
    func turnsAndFlips() throws {
        for o in Orientation.allCases {
            #expect(o.rotatedClockwise().rotatedClockwise().rotatedClockwise().rotatedClockwise() == o)
            #expect(o.rotatedClockwise().rotatedCounterClockwise() == o)
            #expect(o.flippedHorizontally().flippedHorizontally() == o)
            #expect(o.flippedVertically().flippedVertically() == o)
            #expect(o.flippedHorizontally().flippedVertically() == o.rotatedClockwise().rotatedClockwise())
        }
    }

    @Test("rects map to displayed coordinates and back exactly", arguments: Orientation.allCases)
    func rectRoundTrip(_ o: Orientation) throws {
        for size in [Size(width: 6, height: 4), Size(width: 7, height: 5)] {
            let r = Rect(x: 1, y: 0.5, width: 2, height: 3)
            let shown = o.displayedRect(fromStored: r, storedSize: size)
            #expect(shown.size == (o.swapsDimensions ? r.size.transposed : r.size))
            #expect(o.storedRect(fromDisplayed: shown, storedSize: size).isApproximatelyEqual(to: r))
        }
    }
}
