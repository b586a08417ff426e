import CropGeometry
import Testing

@testable import CropEngine

@Suite("Output sizing and handles")
struct OutputSizingTests {
    @Test("the output rounding rule: floor with a 1e-6 px allowance; exact k·(W, H); a free fallback when k is 0")
    func outputSizing() throws {
        let r43 = try AspectRatio(4, 3)
        #expect(
            OutputSizing.outputSize(cropSize: Size(width: 4031.9999999997, height: 3024), aspectRatio: nil)
                == PixelSize(validWidth: 4032, height: 3024))
        #expect(
            OutputSizing.outputSize(cropSize: Size(width: 4031.99, height: 3023.5), aspectRatio: nil)
                == PixelSize(validWidth: 4031, height: 3023))
        #expect(
            OutputSizing.outputSize(cropSize: Size(width: 4031.99, height: 3024), aspectRatio: r43)
                == PixelSize(validWidth: 4028, height: 3021))
        #expect(
            OutputSizing.outputSize(cropSize: Size(width: 0.2, height: 0.3), aspectRatio: nil)
                == PixelSize(validWidth: 1, height: 1))
        #expect(
            OutputSizing.outputSize(cropSize: Size(width: 3000, height: 2000), aspectRatio: try AspectRatio(4031, 3023))
                == PixelSize(validWidth: 3000, height: 2000))
        #expect(
            OutputSizing.outputSize(cropSize: Size(width: 4000, height: 3000), aspectRatio: r43, scale: 0.1)
                == PixelSize(validWidth: 400, height: 300))
    }

    @Test("handle hit-testing: corners win, edges anywhere along them, the middle of a small box stays movable")
    func handles() throws {
        let box = Rect(x: 100, y: 100, width: 200, height: 100)
        #expect(CropHandle.hitTest(Point(x: 95, y: 97), rect: box, radius: 10) == .topLeft)
        #expect(CropHandle.hitTest(Point(x: 180, y: 205), rect: box, radius: 10) == .bottom)
        #expect(CropHandle.hitTest(Point(x: 306, y: 150), rect: box, radius: 10) == .right)
        #expect(CropHandle.hitTest(Point(x: 200, y: 150), rect: box, radius: 10) == nil)
        #expect(CropHandle.hitTest(Point(x: 400, y: 150), rect: box, radius: 10) == nil)
        let small = Rect(x: 0, y: 0, width: 16, height: 16)
        #expect(CropHandle.hitTest(Point(x: 8, y: 8), rect: small, radius: 20) == nil)
        #expect(CropHandle.hitTest(Point(x: 1, y: 1), rect: small, radius: 20) == .topLeft)
        #expect(CropHandle.hitTest(Point(x: .nan, y: 1), rect: small, radius: 20) == nil)
    }
}
