import CropCodecs
import CropPixels
import CropTestSupport
import Foundation
import Testing

@testable import CropKit

/// ``redDiscScene(x:y:width:height:)`` as a q92 JPEG.
func redDiscJPEG(x: Int, y: Int, width: Int = 600, height: Int = 300) throws -> [UInt8] {
    try ImageCodec.encode(
        redDiscScene(x: x, y: y, width: width, height: height), as: .jpeg,
        options: EncodeOptions(jpeg: JPEGEncodeOptions(quality: 92)))
}

@Suite("Smart gravity in the pipeline")
struct SmartGravityTests {
    @Test(
        "attention and entropy keep an off-centre object that the centre crop loses, for fill resizes and thumbnails",
        arguments: [Gravity.attention, .entropy])
    func keepsTheObject(_ gravity: Gravity) throws {
        for x in [45, 555] {
            let jpeg = try redDiscJPEG(x: x, y: 150)
            let pipeline = ImagePipeline()
            let fill = ResizeRequest(.box(PixelSize(validWidth: 100, height: 100)), mode: .fill(gravity: gravity))
            let centre = ResizeRequest(.box(PixelSize(validWidth: 100, height: 100)), mode: .fill())
            #expect(redPixels(try pipeline.run(.data(jpeg), [.resize(centre)]).pixels) == 0)
            let smart = try pipeline.run(.data(jpeg), [.resize(fill)])
            #expect(smart.size == PixelSize(validWidth: 100, height: 100))
            // The disc is 60 of 300 pixels across: about 20×20 output pixels, π·10² ≈ 314 of them.
            #expect(redPixels(smart.pixels) > 250, "\(gravity) at x = \(x)")
            let thumbnail = try pipeline.run(.data(jpeg), [.thumbnail(64, gravity: gravity)])
            #expect(redPixels(thumbnail.pixels) > 90, "\(gravity) thumbnail at x = \(x)")
        }
    }

    @Test("the window becomes a focal point: the run equals a run with that focus, decoded once at the same scale")
    func equalsFocus() throws {
        let jpeg = try redDiscJPEG(x: 480, y: 100, width: 1600, height: 800)
        let pipeline = ImagePipeline()
        let operations = [ImageOperation.fill(120, 120, gravity: .attention)]
        let opened = try pipeline.open(.data(jpeg))
        let (resolved, source, window, _, _) = try pipeline.resolveSmartGravity(
            .data(jpeg), opened, operations, .attention)
        // 800 → 120 is a 6.7× reduction: 1/2 leaves the filter 3.3×, 1/4 only 1.7×
        #expect(source.predecoded?.scale == 2)
        #expect(window.width == 800 && window.height == 800)
        #expect(window.minX <= 480 - 30 && window.maxX >= 480 + 30)
        guard case .resize(let request) = resolved[0], case .fill(.focus) = request.mode else {
            Issue.record("the smart gravity was not replaced by a focus: \(resolved)")
            return
        }
        let smart = try pipeline.run(.data(jpeg), operations)
        let focused = try pipeline.run(.data(jpeg), resolved)
        #expect(smart.pixels == focused.pixels)
        #expect(smart.report.decodeScale == focused.report.decodeScale)
    }

    @Test("smart gravity measures the picture after orientation, crop and straighten", arguments: [0.0, 3.0])
    func afterGeometry(_ angle: Double) throws {
        // The crop keeps the left 500×300 with the disc near its left edge; a centred square of it loses the disc.
        let jpeg = try redDiscJPEG(x: 40, y: 150)
        func run(_ gravity: Gravity) throws -> RenderedImage {
            try ImagePipeline().run(
                .data(jpeg),
                [
                    .crop(Rect(x: 0, y: 0, width: 500, height: 300)), .straighten(angle),
                    .fill(90, 90, gravity: gravity),
                ])
        }
        let smart = try run(.attention)
        #expect(smart.size == PixelSize(validWidth: 90, height: 90))
        #expect(redPixels(try run(.center).pixels) < 20)
        #expect(redPixels(smart.pixels) > 100, "angle \(angle)")
    }

    @Test(
        "a picture too large to hold is measured on a streamed copy and decoded again: the same window, bounded memory")
    func streamedCopy() throws {
        let png = try ImageCodec.encode(redDiscScene(x: 700, y: 120, width: 800, height: 400), as: .png)
        let pipeline = ImagePipeline()
        let operations = [ImageOperation.thumbnail(80, gravity: .attention)]
        let opened = try pipeline.open(.data(png))
        let held = try pipeline.resolveSmartGravity(.data(png), opened, operations, .attention)
        let streamed = try pipeline.resolveSmartGravity(
            .data(png), opened, operations, .attention, predecodeLimit: 1000)
        #expect(held.source.predecoded != nil)
        #expect(streamed.source.predecoded == nil)
        #expect(streamed.window.minX <= 670 && streamed.window.maxX >= 730, "\(streamed.window)")
        // The two copies are resampled differently; the windows agree within 3 cells of the 192-px map (12.5 px here).
        #expect(abs(streamed.window.minX - held.window.minX) <= 12.5, "\(streamed.window) against \(held.window)")
        let rendered = try pipeline.run(
            .data(pipeline.run(.data(png), streamed.operations, to: .data(SaveOptions(format: .png))).bytes))
        #expect(rendered.size == PixelSize(validWidth: 80, height: 80))
        #expect(redPixels(rendered.pixels) > 90)
    }

    @Test("a focal point keeps its spot as near the centre as the picture allows")
    func focus() throws {
        let jpeg = try redDiscJPEG(x: 555, y: 150)
        let request = ResizeRequest(
            .box(PixelSize(validWidth: 100, height: 100)), mode: .fill(gravity: .focus(Point(x: 0.925, y: 0.5))))
        #expect(redPixels(try ImagePipeline().run(.data(jpeg), [.resize(request)]).pixels) > 250)
        // Geometry: the window is centred on the point unless that would leave the picture.
        let bounds = Rect(x: 0, y: 0, width: 600, height: 300)
        #expect(
            Gravity.focus(Point(x: 0.5, y: 0.5)).place(Size(width: 300, height: 300), in: bounds)
                == Rect(x: 150, y: 0, width: 300, height: 300))
        #expect(
            Gravity.focus(Point(x: 0.4, y: 0.5)).place(Size(width: 300, height: 300), in: bounds)
                == Rect(x: 90, y: 0, width: 300, height: 300))
        #expect(
            Gravity.focus(Point(x: 0.05, y: 0.5)).place(Size(width: 300, height: 300), in: bounds)
                == Rect(x: 0, y: 0, width: 300, height: 300))
        #expect(
            Gravity.focus(Point(x: 1, y: 1)).place(Size(width: 300, height: 300), in: bounds)
                == Rect(x: 300, y: 0, width: 300, height: 300))
    }

    @Test("PixelBuffer.resized with a smart fill keeps the object too")
    func inMemory() throws {
        let image = try ImageCodec.decode(try redDiscJPEG(x: 50, y: 150)).pixels
        let smart = try image.resized(width: 100, height: 100, mode: .fill(gravity: .attention))
        #expect(redPixels(smart) > 250)
        #expect(redPixels(try image.resized(width: 100, height: 100, mode: .fill())) == 0)
    }
}
