import CropCodecs
import CropPixels
import CropTestSupport
import Foundation
import Testing

@testable import CropKit

@Suite("Focal points in pixels and aspect crops placed by gravity")
struct PixelFocusTests {
    @Test("focus values: fractions in 0…1, or pixels marked px (on the pair or on each); anything else is refused")
    func parsing() {
        #expect(OptionValue.focus("0.3,0.6") == .focus(Point(x: 0.3, y: 0.6)))
        #expect(OptionValue.focus("1,1") == .focus(Point(x: 1, y: 1)))
        #expect(OptionValue.focus("1200,800px") == .pixelFocus(Point(x: 1200, y: 800)))
        #expect(OptionValue.focus("1200px,800.5px") == .pixelFocus(Point(x: 1200, y: 800.5)))
        #expect(OptionValue.focus("0,0px") == .pixelFocus(Point(x: 0, y: 0)))
        for bad in [
            "1.5,0.5", "-0.1,0.5", "1200,800", "-3,4px", "1200px,800", "a,bpx", "1,2,3", "px", "nan,0.5", "inf,1px", "",
        ] {
            #expect(OptionValue.focus(bad) == nil, "\(bad)")
        }
    }

    /// A 900×300 displayed scene with the red disc at (700, 150), stored under `orientation` (so that a viewer shows
    /// the scene), as a JPEG.
    static func orientedDisc(_ orientation: Orientation) throws -> [UInt8] {
        let shown = try redDiscScene(x: 700, y: 150, width: 900, height: 300)
        return try ImageCodec.encode(
            shown.applyingOrientation(orientation.inverse), as: .jpeg,
            metadata: ImageMetadata(orientation: orientation),
            options: EncodeOptions(jpeg: JPEGEncodeOptions(quality: 92)))
    }

    @Test(
        "a fill's pixel focus is a point of the displayed picture, carried through every EXIF orientation, turns, flips and a straighten (24 seeded cases)"
    )
    func fillFollowsThePoint() throws {
        var rng = SplitMix64(seed: 15)
        let pipeline = ImagePipeline()
        for orientation in Orientation.allCases {
            let jpeg = try Self.orientedDisc(orientation)
            #expect(try ImageSource.data(jpeg).info().displayedSize == PixelSize(validWidth: 900, height: 300))
            for _ in 0..<3 {
                var geometry: [ImageOperation] = Array(repeating: .turn(.clockwise), count: rng.int(0...3))
                if rng.bool() { geometry.append(.flip(rng.bool() ? .horizontal : .vertical)) }
                geometry.append(.straighten(rng.double(-5...5)))
                func run(_ gravity: Gravity) throws -> RenderedImage {
                    try pipeline.run(
                        .data(jpeg),
                        geometry + [
                            .fill(100, 100, gravity: gravity)
                        ])
                }
                let focused = try run(.pixelFocus(Point(x: 700, y: 150)))
                #expect(focused.size == PixelSize(validWidth: 100, height: 100))
                // The centred window (240–300 px of the 716–900-px straightened crop) misses the disc; the focused
                // one holds all of it: a disc of radius 30 source pixels is 314–490 output pixels.
                #expect(redPixels(try run(.center).pixels) < 20, "\(orientation) \(geometry)")
                #expect(redPixels(focused.pixels) > 250, "\(orientation) \(geometry)")
            }
        }
    }

    @Test(
        "an aspect crop at a pixel focus is the largest of its aspect, as centred on the point as the picture allows (200 seeded cases)"
    )
    func aspectCropInvariants() throws {
        var rng = SplitMix64(seed: 1501)
        let pipeline = ImagePipeline()
        for _ in 0..<200 {
            let size = PixelSize(validWidth: rng.int(8...300), height: rng.int(8...300))
            let png = try ImageCodec.encode(
                PixelBuffer(
                    width: size.width, height: size.height, layout: .gray,
                    samples: [UInt8](repeating: 90, count: size.width * size.height)), as: .png)
            let ratio = try AspectRatio(rng.int(1...21), rng.int(1...21))
            let point = Point(
                x: rng.double(-20...Double(size.width + 20)), y: rng.double(-20...Double(size.height + 20)))
            let state = try pipeline.cropState(.data(png), [.aspectCrop(ratio, gravity: .pixelFocus(point))])
            let crop = state.crop, tolerance = 1e-6
            let label = "\(size) \(ratio) \(point) → \(crop)"
            #expect(abs(crop.width / crop.height - ratio.value) < 1e-9 * ratio.value + 1e-9, "\(label)")
            // Largest: as wide or as tall as the picture.
            #expect(
                abs(crop.width - Double(size.width)) < tolerance || abs(crop.height - Double(size.height)) < tolerance,
                "\(label)")
            #expect(crop.minX >= -tolerance && crop.minY >= -tolerance, "\(label)")
            #expect(
                crop.maxX <= Double(size.width) + tolerance && crop.maxY <= Double(size.height) + tolerance, "\(label)")
            // On each axis the point is the centre, or the crop touches the picture's edge on the point's side.
            #expect(
                abs(crop.midX - point.x) < tolerance
                    || (point.x < crop.midX && crop.minX < tolerance)
                    || (point.x > crop.midX && crop.maxX > Double(size.width) - tolerance), "\(label)")
            #expect(
                abs(crop.midY - point.y) < tolerance
                    || (point.y < crop.midY && crop.minY < tolerance)
                    || (point.y > crop.midY && crop.maxY > Double(size.height) - tolerance), "\(label)")
            #expect(state.recipe.aspect == .ratio(ratio), "\(label)")
        }
    }

    @Test(
        "an aspect crop by attention renders the proposal: same rectangle, exact size, the disc kept; under orientation 6 too"
    )
    func aspectCropByAttention() throws {
        let pipeline = ImagePipeline()
        for orientation in [Orientation.up, .rightTop] {
            let jpeg = try Self.orientedDisc(orientation)
            let square = AspectRatio.square
            let proposal = try pipeline.proposeCrop(.data(jpeg), aspect: square, measure: .attention)
            let state = try pipeline.cropState(.data(jpeg), [.aspectCrop(square, gravity: .attention)])
            #expect(
                abs(state.crop.minX - proposal.rect.minX) < 1e-6 && abs(state.crop.width - proposal.rect.width) < 1e-6)
            let rendered = try pipeline.run(.data(jpeg), [.aspectCrop(square, gravity: .attention)])
            #expect(rendered.size == PixelSize(validWidth: 300, height: 300))
            #expect(redPixels(rendered.pixels) > 2500, "\(orientation)")  // π·30² ≈ 2,827 pixels
            #expect(redPixels(try pipeline.run(.data(jpeg), [.aspectCrop(square)]).pixels) == 0)
        }
    }

    @Test("an aspect crop must be the first geometric step")
    func aspectCropFirst() throws {
        let jpeg = try Self.orientedDisc(.up)
        #expect(
            throws: CropKitError.invalidRequest(
                name: "operations", reason: "aspectCrop must be the first geometric step (it is step 2)")
        ) {
            try ImagePipeline().run(.data(jpeg), [.turn(.clockwise), .aspectCrop(.square)])
        }
    }
}
