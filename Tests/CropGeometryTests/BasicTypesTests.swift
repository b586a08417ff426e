import Foundation
import Testing

@testable import CropGeometry

@Suite("Affine transform")
struct AffineTransformTests {
    @Test("concatenation applies left then right; inversion undoes; rects map through quarter turns exactly")
    func composition() throws {
        let t = AffineTransform2D.translation(x: 10, y: 5).scaledBy(x: 2, y: 3)
        #expect(t.apply(to: Point(x: 1, y: 1)) == Point(x: 22, y: 18))
        let inverse = try #require(t.inverted())
        #expect(inverse.apply(to: Point(x: 22, y: 18)) == Point(x: 1, y: 1))
        #expect(t.concatenating(inverse).isApproximatelyEqual(to: .identity))
        #expect(AffineTransform2D.scale(x: 0, y: 1).inverted() == nil)
        // A quarter turn maps an axis-aligned rect to an axis-aligned rect with its sides exchanged.
        let quarter = AffineTransform2D(a: 0, b: 1, c: -1, d: 0, tx: 30, ty: 0)
        #expect(quarter.apply(to: Rect(x: 1, y: 2, width: 3, height: 4)) == Rect(x: 24, y: 1, width: 4, height: 3))
        // Counter-clockwise on screen (y down) takes "right" to "up".
        let ccw = AffineTransform2D.rotation(counterClockwiseOnScreen: .pi / 2)
        #expect(ccw.apply(to: Point(x: 1, y: 0)).isApproximatelyEqual(to: Point(x: 0, y: -1), tolerance: 1e-15))
        #expect(ccw.applyLinear(to: Point(x: 0, y: 1)).isApproximatelyEqual(to: Point(x: 1, y: 0), tolerance: 1e-15))
    }
}

@Suite("Content modes")
struct ContentModeTests {
    static let bounds = Rect(x: 10, y: 20, width: 200, height: 100)
    static let image = Size(width: 50, height: 40)

    @Test(
        "each mode gives the documented frame",
        arguments: [
            (ContentMode.scaleToFill, Rect(x: 10, y: 20, width: 200, height: 100)),
            (.aspectFit, Rect(x: 47.5, y: 20, width: 125, height: 100)),
            (.aspectFill, Rect(x: 10, y: -10, width: 200, height: 160)),
            (.center, Rect(x: 85, y: 50, width: 50, height: 40)),
            (.top, Rect(x: 85, y: 20, width: 50, height: 40)),
            (.bottom, Rect(x: 85, y: 80, width: 50, height: 40)),
            (.left, Rect(x: 10, y: 50, width: 50, height: 40)),
            (.right, Rect(x: 160, y: 50, width: 50, height: 40)),
            (.topLeft, Rect(x: 10, y: 20, width: 50, height: 40)),
            (.topRight, Rect(x: 160, y: 20, width: 50, height: 40)),
            (.bottomLeft, Rect(x: 10, y: 80, width: 50, height: 40)),
            (.bottomRight, Rect(x: 160, y: 80, width: 50, height: 40)),
        ])
    func frames(_ mode: ContentMode, _ expected: Rect) throws {
        #expect(mode.frame(imageSize: Self.image, in: Self.bounds) == expected)
        // Points and rects map view ↔ image both ways, the image's corners onto the frame's.
        let t = try #require(mode.imageToViewTransform(imageSize: Self.image, in: Self.bounds))
        #expect(t.apply(to: Rect(size: Self.image)).isApproximatelyEqual(to: expected, tolerance: 1e-12))
        let p = Point(x: 12.5, y: 33)
        let view = try #require(mode.viewPoint(fromImage: p, imageSize: Self.image, in: Self.bounds))
        #expect(
            mode.imagePoint(fromView: view, imageSize: Self.image, in: Self.bounds)?
                .isApproximatelyEqual(to: p, tolerance: 1e-12) == true)
        let r = Rect(x: 3, y: 4, width: 20, height: 10)
        let viewRect = try #require(mode.viewRect(fromImage: r, imageSize: Self.image, in: Self.bounds))
        #expect(
            mode.imageRect(fromView: viewRect, imageSize: Self.image, in: Self.bounds)?
                .isApproximatelyEqual(to: r, tolerance: 1e-12) == true)
        #expect(mode.imageToViewTransform(imageSize: .zero, in: Self.bounds) == nil)
    }
}

@Suite("Aspect ratios, output sizing, handles")
struct SmallTypesTests {
    @Test("ratios are reduced integers with exact equality; locks parse and encode as strings")
    func ratios() throws {
        #expect(try AspectRatio(8, 6) == AspectRatio(4, 3))
        #expect(try AspectRatio(string: "16x9") == AspectRatio(16, 9))
        #expect(try AspectRatio(string: " 3 / 2 ") == AspectRatio(3, 2))
        #expect(AspectRatio(of: PixelSize(validWidth: 4032, height: 3024)) == (try AspectRatio(4, 3)))
        #expect(try AspectRatio(3, 2).transposed == AspectRatio(2, 3))
        for bad in ["0:1", "1:-2", "a:b", "3", "1:2:3", "2000000:1", ""] {
            #expect(throws: GeometryError.self) { try AspectRatio(string: bad) }
        }
        for lock in [AspectLock.free, .original, .square, try .ratio(21, 9)] {
            #expect(try AspectLock(string: lock.description) == lock)
            #expect(try JSONDecoder().decode(AspectLock.self, from: JSONEncoder().encode(lock)) == lock)
        }
        #expect(
            AspectLock.original.aspectRatio(uprightSize: PixelSize(validWidth: 4031, height: 3023))
                == (try AspectRatio(4031, 3023)))
        #expect(AspectLock.free.aspectRatio(uprightSize: PixelSize(validWidth: 4, height: 3)) == nil)
    }

}
