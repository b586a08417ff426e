import CropCodecs
import CropPixels
import CropTestSupport
import Foundation
import Testing

@testable import CropKit

/// Fixtures: tiny copies of the EXIF orientation sample set (64×43 displayed, EXIF blocks kept).
enum Fixtures {
    static let root = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!
    static func path(_ name: String) -> String { root.appendingPathComponent(name).path }
    static func landscape(_ orientation: Int) -> ImageSource { .file(path("landscape-\(orientation)-mm.jpg")) }
}

/// A smooth synthetic RGB picture (gradients and rings), JPEG-encoded at q95, `width × height`.
func syntheticJPEG(width: Int, height: Int, progressive: Bool = false) throws -> [UInt8] {
    var buffer = try PixelBuffer(width: width, height: height, format: .rgb8)
    buffer.withUnsafeMutableRows { rows in
        for y in 0..<height {
            let row = rows.row8(y)
            for x in 0..<width {
                let fx = Double(x) / Double(width), fy = Double(y) / Double(height)
                let r = (fx - 0.5) * (fx - 0.5) + (fy - 0.5) * (fy - 0.5)
                row[3 * x] = UInt8(clamping: Int(255 * fx))
                row[3 * x + 1] = UInt8(clamping: Int(255 * fy))
                row[3 * x + 2] = UInt8(clamping: Int(127.5 + 127.5 * cos(r * 60)))
            }
        }
    }
    return try ImageCodec.encode(
        buffer, as: .jpeg, options: EncodeOptions(jpeg: JPEGEncodeOptions(quality: 95, progressive: progressive)))
}

@Suite("Pipelines: orientation")
struct PipelineOrientationTests {
    /// The upright picture from orientation 1, decoded directly: every other orientation must look the same.
    static let referenceResult = Result { try Image(contentsOfFile: Fixtures.path("landscape-1-mm.jpg")).pixels }
    static var reference: PixelBuffer { get throws { try referenceResult.get() } }

    @Test("orient turns every EXIF orientation into the same upright picture", arguments: 1...8)
    func orientAll(_ orientation: Int) throws {
        let result = try ImagePipeline().run(Fixtures.landscape(orientation))
        let image = result.image
        #expect(result.size == PixelSize(validWidth: 64, height: 43))
        #expect(image.metadata.orientation == .up)
        // The fixtures are separate JPEG encodes of the same picture: allow codec noise, not a wrong turn.
        #expect(meanDifference(image.pixels, try Self.reference) < 6)
    }

    @Test("a wrong orientation is detected by the same measure (the test can fail)")
    func wrongOrientationDiffers() throws {
        let stored = try Image(contentsOfFile: Fixtures.path("landscape-3-mm.jpg"), appliesOrientation: false).pixels
        #expect(meanDifference(stored, try Self.reference) > 30)
    }

    @Test(
        "resize targets are displayed sizes: orientations 5–8 swap, and nothing is rotated twice",
        arguments: 1...8)
    func resizeUsesDisplayedSize(_ orientation: Int) throws {
        let result = try ImagePipeline().run(Fixtures.landscape(orientation), [.resize(width: 32)])
        let image = result.image
        #expect(result.size == PixelSize(validWidth: 32, height: 22))  // 43 × 32/64 = 21.5 rounds to 22
        let reference = try Self.reference.resized(width: 32, height: 22)
        #expect(meanDifference(image.pixels, reference) < 6)
    }

    @Test("writing an upright output resets the EXIF orientation to 1 and keeps the EXIF block")
    func writesOrientationOne() throws {
        try withScratchFolder { dir throws in
            let out = dir + "/out.jpg"
            _ = try ImagePipeline().run(Fixtures.landscape(6), [], to: .file(out))
            let info = try ImageInfo.read(fileAtPath: out)
            #expect(info.orientation == .up)
            #expect(info.hasEXIF)
            #expect(info.width == 64 && info.height == 43)
            let stripped = dir + "/stripped.jpg"
            _ = try ImagePipeline().run(
                Fixtures.landscape(6), [], to: .file(stripped, options: SaveOptions(stripMetadata: true)))
            #expect(try !ImageInfo.read(fileAtPath: stripped).hasEXIF)
        }
    }
}

@Suite("Pipelines: resize")
struct PipelineResizeTests {
    @Test("streamed resize equals the whole-buffer resize of the decoded picture")
    func streamingMatchesBuffer() throws {
        let jpeg = try syntheticJPEG(width: 600, height: 400)
        let pipeline = ImagePipeline(shrinkOnLoad: false)
        let streamed = try pipeline.run(.data(jpeg), [.resize(width: 150)]).pixels
        let decoded = try ImageCodec.decode(jpeg).pixels
        let reference = try decoded.resized(width: 150, height: 100)
        #expect(maxDifference(streamed, reference) <= 1)
    }

    @Test("shrink-on-load picks the largest JPEG scale that leaves the filter a 2× reduction")
    func shrinkOnLoadScale() throws {
        let jpeg = try syntheticJPEG(width: 1600, height: 1200)
        let pipeline = ImagePipeline()
        // (target width, expected scale): 1600/100 = 16 → 1/8 leaves 2×; 1600/300 ≈ 5.3 → 1/2; 1600/600 → none.
        // A reduction up to 5% short of the headroom counts: 1600/104 at 1/8 leaves 1.92×, 1600/107 only 1.87×.
        for (width, scale) in [(100, 8), (104, 8), (107, 4), (199, 4), (300, 2), (600, 1)] {
            let result = try pipeline.run(.data(jpeg), [.resize(width: width)])
            #expect(result.report.decodeScale == scale, "width \(width)")
            #expect(result.size.width == width)
        }
        // A square thumbnail's centre square (here 1200×1200 to 77 px: 1.95× at 1/8) decodes at 1/8 as the fit does.
        let square = try pipeline.run(.data(jpeg), [.thumbnail(ThumbnailRequest(side: 77))])
        #expect(square.report.decodeScale == 8 && square.size == PixelSize(validWidth: 77, height: 77))
    }

    @Test("a shrink-on-load headroom of 1 decodes at the smallest scale that still covers the output")
    func shrinkOnLoadHeadroomOne() throws {
        let jpeg = try syntheticJPEG(width: 1600, height: 1200)
        let pipeline = ImagePipeline(shrinkOnLoadHeadroom: 1)
        // 1600/200 = 8 → 1/8 exactly covers it; 1600/201 < 8 → 1/4; 1600/799 → 1/2; 1600/801 → none.
        for (width, scale) in [(100, 8), (200, 8), (201, 4), (400, 4), (401, 2), (799, 2), (801, 1)] {
            let result = try pipeline.run(.data(jpeg), [.resize(width: width)])
            #expect(result.report.decodeScale == scale, "width \(width)")
            #expect(result.size.width == width)
        }
        // Below 1 counts as 1: never a decode smaller than the output.
        let below = try ImagePipeline(shrinkOnLoadHeadroom: 0.5).run(.data(jpeg), [.resize(width: 201)])
        #expect(below.report.decodeScale == 4)
    }

    @Test("shrink-on-load with headroom 1 stays close to the full decode", arguments: [false, true])
    func shrinkOnLoadHeadroomOneQuality(progressive: Bool) throws {
        let jpeg = try syntheticJPEG(width: 1600, height: 1200, progressive: progressive)
        let request = [ImageOperation.resize(width: 150)]  // 1/8 decode, then a 1.33× reduction
        let fast = try ImagePipeline(shrinkOnLoadHeadroom: 1).run(.data(jpeg), request)
        #expect(fast.report.decodeScale == 8)
        let full = try ImagePipeline(shrinkOnLoad: false).run(.data(jpeg), request).pixels
        #expect(meanDifference(fast.pixels, full) < 1)  // measured 0.39
        #expect(maxDifference(fast.pixels, full) <= 8)  // measured 3
    }

    @Test("shrink-on-load output stays close to the full decode", arguments: [false, true])
    func shrinkOnLoadQuality(progressive: Bool) throws {
        let jpeg = try syntheticJPEG(width: 1600, height: 1200, progressive: progressive)
        let fast = try ImagePipeline().run(.data(jpeg), [.resize(width: 100)]).pixels
        let full = try ImagePipeline(shrinkOnLoad: false).run(.data(jpeg), [.resize(width: 100)]).pixels
        #expect(meanDifference(fast, full) < 1.5)
        #expect(maxDifference(fast, full) <= 12)
    }

    @Test("every mode gives its exact size, and nothing is enlarged without allowUpscale")
    func modesAndUpscale() throws {
        let jpeg = try syntheticJPEG(width: 200, height: 100)
        let p = ImagePipeline()
        func size(_ r: ResizeRequest) throws -> PixelSize { try p.run(.data(jpeg), [.resize(r)]).size }
        #expect(
            try size(ResizeRequest(.box(PixelSize(validWidth: 50, height: 50)), mode: .fit))
                == PixelSize(validWidth: 50, height: 25))
        #expect(
            try size(ResizeRequest(.box(PixelSize(validWidth: 50, height: 50)), mode: .fill(gravity: .left)))
                == PixelSize(validWidth: 50, height: 50))
        #expect(
            try size(ResizeRequest(.box(PixelSize(validWidth: 50, height: 50)), mode: .pad()))
                == PixelSize(validWidth: 50, height: 50))
        #expect(
            try size(ResizeRequest(.box(PixelSize(validWidth: 50, height: 50)), mode: .stretch))
                == PixelSize(validWidth: 50, height: 50))
        #expect(try size(ResizeRequest(.height(20))) == PixelSize(validWidth: 40, height: 20))
        // Larger boxes: capped at the source's own pixels unless allowed.
        #expect(
            try size(ResizeRequest(.box(PixelSize(validWidth: 800, height: 800)), mode: .fit))
                == PixelSize(validWidth: 200, height: 100))
        #expect(
            try size(ResizeRequest(.box(PixelSize(validWidth: 800, height: 800)), mode: .fit, allowUpscale: true))
                == PixelSize(validWidth: 800, height: 400))
        #expect(
            try size(ResizeRequest(.box(PixelSize(validWidth: 400, height: 400)), mode: .fill()))
                == PixelSize(validWidth: 100, height: 100))
        #expect(
            try size(ResizeRequest(.box(PixelSize(validWidth: 300, height: 50)), mode: .stretch))
                == PixelSize(validWidth: 200, height: 50))
        #expect(try size(ResizeRequest(.width(400))) == PixelSize(validWidth: 200, height: 100))
    }

    @Test("a width or height target gives exactly that side, whatever the proportions (800 seeded cases)")
    func exactNamedSide() throws {
        var rng = SplitMix64(seed: 25)
        for _ in 0..<800 {
            let shown = PixelSize(validWidth: rng.int(2...5000), height: rng.int(2...5000))
            let width = rng.int(1...shown.width), height = rng.int(1...shown.height)
            for (request, side) in [(ResizeRequest(.width(width)), width), (ResizeRequest(.height(height)), height)] {
                let plan = try request.plan(shown: shown, box: try request.target.box(for: shown))
                let named = if case .width = request.target { plan.imageSize.width } else { plan.imageSize.height }
                #expect(named == side, "\(shown) → \(request.target): \(plan.imageSize)")
                // The other side keeps the proportions to within the rounding of one pixel.
                let ratio = Double(shown.width) / Double(shown.height)
                let other = if case .width = request.target { Double(side) / ratio } else { Double(side) * ratio }
                let actual = if case .width = request.target { plan.imageSize.height } else { plan.imageSize.width }
                #expect(abs(Double(actual) - other) <= 0.5 + 1e-9 || (actual == 1 && other < 1))
            }
        }
        // The case that was found: 203×133 to width 25 was 24×16.
        let request = ResizeRequest(.width(25)), shown = PixelSize(validWidth: 203, height: 133)
        #expect(
            try request.plan(shown: shown, box: request.target.box(for: shown)).imageSize
                == PixelSize(validWidth: 25, height: 16))
    }

    @Test("pad places the unenlarged picture in the full box on a transparent background")
    func padNoUpscale() throws {
        let jpeg = try syntheticJPEG(width: 40, height: 20)
        let result = try ImagePipeline().run(
            .data(jpeg), [.resize(ResizeRequest(.box(PixelSize(validWidth: 100, height: 60)), mode: .pad()))])
        let image = result.pixels
        #expect(result.size == PixelSize(validWidth: 100, height: 60))
        #expect(image.format == .rgba8)
        #expect(image[x: 0, y: 0, channel: 3] == 0)  // padding
        #expect(image[x: 50, y: 30, channel: 3] == 255)  // picture: 40×20 centred at (30…70, 20…40)
        #expect(image[x: 29, y: 30, channel: 3] == 0 && image[x: 30, y: 30, channel: 3] == 255)
    }

    @Test("16-bit PNG stays 16-bit through a resize, and gray stays gray")
    func depthAndLayoutKept() throws {
        var gray16 = try PixelBuffer(width: 64, height: 32, format: .gray16)
        for y in 0..<32 { for x in 0..<64 { gray16[x: x, y: y, channel: 0] = x * 1000 + y } }
        let png = try ImageCodec.encode(gray16, as: .png)
        try withScratchFolder { dir throws in
            let out = dir + "/small.png"
            let result = try ImagePipeline().run(.data(png), [.resize(width: 16)], to: .file(out))
            #expect(result.report.pixelFormat == .gray16)
            let decoded = try ImageCodec.decode(fileAtPath: out)
            #expect(decoded.pixels.format == .gray16 && decoded.pixels.width == 16 && decoded.pixels.height == 8)
        }
    }
}

@Suite("Pipelines: thumbnails and corners")
struct PipelineThumbnailTests {
    @Test("a thumbnail is exactly side × side, with a transparent border and rounded corners")
    func thumbnail() throws {
        let jpeg = try syntheticJPEG(width: 900, height: 600)
        let result = try ImagePipeline().run(.data(jpeg), [.thumbnail(64, border: 4, cornerRadius: 12)])
        let image = result.pixels
        #expect(result.size == PixelSize(validWidth: 64, height: 64) && image.format == .rgba8)
        #expect(image[x: 2, y: 32, channel: 3] == 0)  // border
        #expect(image[x: 5, y: 5, channel: 3] == 0)  // rounded-off corner
        #expect(image[x: 32, y: 32, channel: 3] == 255)  // inside
        #expect(result.report.decodeScale == 4)  // 600/56 ≈ 10.7 → 1/4 leaves 2.7×
    }

    @Test("a plain thumbnail of an opaque photo stays opaque RGB")
    func opaqueStaysOpaque() throws {
        let result = try ImagePipeline().run(Fixtures.landscape(6), [.thumbnail(40)])
        #expect(result.report.pixelFormat == .rgb8 && result.size == PixelSize(validWidth: 40, height: 40))
    }

    @Test("round corners and circle keep or square the upright picture")
    func rounding() throws {
        let p = ImagePipeline()
        let rounded = try p.run(Fixtures.landscape(6), [.roundCorners(.pixels(10))])
        #expect(rounded.size == PixelSize(validWidth: 64, height: 43) && rounded.report.pixelFormat == .rgba8)
        let circle = try p.run(Fixtures.landscape(8), [.roundCorners(.circle, border: 2)]).pixels
        #expect(circle.width == 43 && circle.height == 43)
        #expect(circle[x: 0, y: 0, channel: 3] == 0 && circle[x: 21, y: 21, channel: 3] == 255)
    }
}

@Suite("Pipelines: render")
struct PipelineRenderTests {
    @Test("an untouched crop renders the whole upright picture, pixel for pixel", arguments: [1, 3, 6, 8])
    func identityIsExact(_ orientation: Int) throws {
        let source = Fixtures.landscape(orientation)
        let info = try source.info()
        let state = try CropState(
            sourceSize: PixelSize(validWidth: info.width, height: info.height), orientation: info.orientation)
        let rendered = try ImagePipeline().run(source, [.cropState(state)]).pixels
        let upright = try Image(source: source).pixels
        #expect(rendered == upright)
    }

    @Test("a straightened render of a flat picture contains no fill pixel")
    func straightenHasNoFill() throws {
        var gray = try PixelBuffer(width: 300, height: 200, format: .rgb8)
        gray.withUnsafeMutableRows { rows in for y in 0..<200 { rows.row8(y).update(repeating: 200, count: 900) } }
        let png = try ImageCodec.encode(gray, as: .png)
        for angle in [-44.9, -7.5, 0.3, 10, 45] {
            var state = try CropState(sourceSize: PixelSize(validWidth: 300, height: 200))
            try state.setStraightenAngle(angle)
            let out = try ImagePipeline().run(.data(png), [.cropState(state)]).pixels
            #expect(out.samples.allSatisfy { abs($0 - 200) <= 1 }, "angle \(angle)")
        }
    }

    @Test("the banded two-worker render equals one direct render of the decoded picture", arguments: [-7.5, 3, 30])
    func bandedEqualsDirect(angle: Double) throws {
        let jpeg = try syntheticJPEG(width: 500, height: 340)  // 340 output-ish rows: several 64-row bands
        var state = try CropState(sourceSize: PixelSize(validWidth: 500, height: 340))
        try state.setStraightenAngle(angle)
        let piped = try ImagePipeline().run(.data(jpeg), [.cropState(state)]).pixels
        let plan = state.renderPlan()
        let direct = try AffineRenderer(
            sourceSize: plan.sourceSize, outputSize: plan.outputSize, transform: plan.transform
        )
        .render(try ImageCodec.decode(jpeg).pixels)
        #expect(piped == direct)
    }

    @Test(
        "a wide straightened render streams through a window smaller than the rows it reads, with the same pixels",
        arguments: [2.0, -6.5])
    func windowWraps(angle: Double) throws {
        let jpeg = try syntheticJPEG(width: 1400, height: 700)
        var state = try CropState(sourceSize: PixelSize(validWidth: 1400, height: 700))
        try state.setStraightenAngle(angle)
        let plan = state.renderPlan()
        let renderer = try AffineRenderer(
            sourceSize: plan.sourceSize, outputSize: plan.outputSize, transform: plan.transform)
        let height = plan.outputSize.height
        let bandRows = stride(from: 0, to: height, by: ImagePipeline.renderBandRows)
            .map { renderer.sourceRows(forOutputRows: $0..<min($0 + ImagePipeline.renderBandRows, height)) }
        let capacity = ImagePipeline.windowCapacity(bandRows, decodeRows: ImagePipeline.bandRows)
        #expect(capacity < renderer.sourceRows(forOutputRows: 0..<height).count / 2)
        let piped = try ImagePipeline().run(.data(jpeg), [.cropState(state)]).pixels
        #expect(piped == (try renderer.render(try ImageCodec.decode(jpeg).pixels)))
    }

    @Test(
        "a window split in column strips holds under 3/4 of whole rows' pixels and renders the same pixels",
        arguments: [-2.0, 12.0, -20.0, 33.0, -45.0])
    func columnStripWindow(angle: Double) throws {
        let jpeg = try syntheticJPEG(width: 1400, height: 700)
        var state = try CropState(sourceSize: PixelSize(validWidth: 1400, height: 700))
        try state.setStraightenAngle(angle)
        let plan = state.renderPlan()
        let policy = ImagePipeline.ColumnStripPolicy(thresholdPixels: 0, minimumWidth: 64, maximumCount: 16)
        let size = PixelSize(validWidth: 1400, height: 700)
        let whole = try ImagePipeline.AffineLayout(RenderGeometry(plan: plan), scale: 1, decodedSize: size)
        let striped = try ImagePipeline.AffineLayout(
            RenderGeometry(plan: plan), scale: 1, decodedSize: size, strips: policy)
        #expect(whole.strips.count == 1)
        // A turn of 2° reads few rows: strips, each with its own slack, would not pay, and whole rows stay.
        #expect(striped.strips.count == (abs(angle) < 5 ? 1 : 16))
        #expect(striped.windowBytes(bytesPerPixel: 3) * 4 < whole.windowBytes(bytesPerPixel: 3) * 3 || abs(angle) < 5)
        // Every band's rows cover what it reads in each strip.
        for strip in striped.strips {
            for (rows, all) in zip(strip.bandRows, striped.bandRows) where !rows.isEmpty {
                #expect(rows.lowerBound >= all.lowerBound && rows.upperBound <= all.upperBound)
            }
        }
        let renderer = try AffineRenderer(
            sourceSize: plan.sourceSize, outputSize: plan.outputSize, transform: plan.transform)
        let expected = try renderer.render(try ImageCodec.decode(jpeg).pixels)
        let (twoThreads, oneThread) = try ImagePipeline.$columnStrips.withValue(policy) {
            () throws -> (PixelBuffer, PixelBuffer) in
            var pipeline = ImagePipeline()
            let two = try pipeline.run(.data(jpeg), [.cropState(state)]).pixels
            // One thread: the decoder renders and encodes every band itself while its strips are full.
            pipeline.maxThreads = 1
            return (two, try pipeline.run(.data(jpeg), [.cropState(state)]).pixels)
        }
        #expect(twoThreads == expected)
        #expect(oneThread == expected)
    }

    @Test("a truncated source fails the straightened render with a typed error, no hang and no file")
    func truncatedStraightened() throws {
        let jpeg = try syntheticJPEG(width: 500, height: 340)
        var state = try CropState(sourceSize: PixelSize(validWidth: 500, height: 340))
        try state.setStraightenAngle(5)
        try withScratchFolder { dir throws in
            #expect(throws: CropKitError.self) {
                try ImagePipeline().run(
                    .data(Array(jpeg.prefix(jpeg.count * 2 / 3))), [.cropState(state)], to: .file(dir + "/o.jpg"))
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
        }
    }

    @Test(
        "a truncated source fails a render through column strips with a typed error, no hang and no file",
        arguments: [0, 1])
    func truncatedThroughStrips(maxThreads: Int) throws {
        let jpeg = try syntheticJPEG(width: 1400, height: 700)
        var state = try CropState(sourceSize: PixelSize(validWidth: 1400, height: 700))
        try state.setStraightenAngle(-20)
        let policy = ImagePipeline.ColumnStripPolicy(thresholdPixels: 0, minimumWidth: 64, maximumCount: 16)
        let layout = try ImagePipeline.AffineLayout(
            RenderGeometry(plan: state.renderPlan()), scale: 1, decodedSize: PixelSize(validWidth: 1400, height: 700),
            strips: policy)
        #expect(layout.strips.count == 16)
        try withScratchFolder { dir throws in
            var pipeline = ImagePipeline()
            pipeline.maxThreads = maxThreads
            // The decoder stops two thirds of the way, while bands are rendering from strips and strips wait.
            let error = ImagePipeline.$columnStrips.withValue(policy) { () -> (any Error)? in
                do {
                    _ = try pipeline.run(
                        .data(Array(jpeg.prefix(jpeg.count * 2 / 3))), [.cropState(state)],
                        to: .file(dir + "/o.jpg"))
                    return nil
                } catch {
                    return error
                }
            }
            #expect(error is CropKitError)
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
        }
    }

    @Test("a recipe renders the same region of a small and a large copy of a picture")
    func recipeAcrossResolutions() throws {
        let large = try syntheticJPEG(width: 1200, height: 800)
        let small = try ImagePipeline().run(.data(large), [.resize(width: 300)], to: .data()).bytes
        var state = try CropState(sourceSize: PixelSize(validWidth: 300, height: 200))
        try state.setCrop(Rect(x: 60, y: 40, width: 120, height: 90))
        let recipe = state.recipe
        let fromSmall = try ImagePipeline().run(.data(small), [.recipe(recipe)]).pixels
        let fromLarge = try ImagePipeline().run(
            .data(large), [.recipe(recipe), .fit(within: PixelSize(validWidth: 120, height: 90))])
        #expect(fromSmall.width == 120 && fromSmall.height == 90)
        #expect(fromLarge.size == PixelSize(validWidth: 120, height: 90))
        #expect(meanDifference(fromSmall, fromLarge.pixels) < 4)
    }
}

@Suite("Pipelines: errors and safety")
struct PipelineErrorTests {
    @Test("an existing output is refused before any work, and left untouched")
    func existingOutput() throws {
        try withScratchFolder { dir throws in
            let out = dir + "/out.jpg"
            try Data("keep me".utf8).write(to: URL(fileURLWithPath: out))
            #expect(throws: CropKitError.codec(.fileExists(path: out))) {
                try ImagePipeline().run(Fixtures.landscape(1), [], to: .file(out))
            }
            #expect(try String(contentsOfFile: out, encoding: .utf8) == "keep me")
            _ = try ImagePipeline().run(
                Fixtures.landscape(1), [], to: .file(out, options: SaveOptions(overwrite: true)))
            #expect(try ImageInfo.read(fileAtPath: out).width == 64)
        }
    }

    @Test("a truncated input is a typed error and leaves no output file")
    func truncatedInput() throws {
        let jpeg = try syntheticJPEG(width: 300, height: 200)
        try withScratchFolder { dir throws in
            let out = dir + "/out.jpg"
            #expect(throws: CropKitError.self) {
                try ImagePipeline().run(.data(Array(jpeg.prefix(jpeg.count / 2))), [.resize(width: 50)], to: .file(out))
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
        }
    }

    @Test("bad requests name the argument")
    func badRequests() throws {
        let source = Fixtures.landscape(1)
        #expect(throws: CropKitError.invalidRequest(name: "width", reason: "0 must be at least 1")) {
            try ImagePipeline().run(source, [.resize(width: 0)])
        }
        #expect(throws: CropKitError.self) { try ImagePipeline().run(source, [.thumbnail(10, border: 5)]) }
        #expect(throws: CropKitError.self) { try ImagePipeline().run(source, [.roundCorners(.pixels(-1))]) }
        #expect(throws: CropKitError.self) { try ImagePipeline().run(source, [], to: .file("/tmp/x.tif")) }
        let wrongState = try CropState(sourceSize: PixelSize(validWidth: 10, height: 10))
        #expect(throws: CropKitError.self) { try ImagePipeline().run(source, [.cropState(wrongState)]) }
    }

    @Test("the pixel limit is checked before decoding")
    func pixelLimit() throws {
        let jpeg = try syntheticJPEG(width: 300, height: 200)
        #expect(throws: CropKitError.self) {
            try ImagePipeline(limits: PixelLimits(maxPixels: 50_000)).run(.data(jpeg), [.resize(width: 10)])
        }
    }

    @Test(
        "the short forms build the requests they name, and run as them: .thumbnail(256, cornerRadius: 32), .fit(1024, 1024), .fill(40, 30, gravity: .attention), .resize(width:), .resize(height:); a side below 1 is refused naming it"
    )
    func shortForms() throws {
        #expect(ImageOperation.thumbnail(256, cornerRadius: 32) == .thumbnail(256, cornerRadius: 32))
        #expect(ImageOperation.fit(1024, 768) == .fit(1024, 768))
        #expect(
            ImageOperation.fill(40, 30, gravity: .attention)
                == .resize(ResizeRequest(.box(PixelSize(validWidth: 40, height: 30)), mode: .fill(gravity: .attention)))
        )
        #expect(ImageOperation.resize(width: 32, allowUpscale: true) == .resize(width: 32, allowUpscale: true))
        #expect(ImageOperation.resize(height: 20) == .resize(height: 20))
        let photo = ImageSource.file(Fixtures.path("landscape-6-mm.jpg"))
        let short = try ImagePipeline().run(photo, [.fill(40, 30, gravity: .top)]).pixels
        let long = try ImagePipeline().run(
            photo, [.fill(40, 30, gravity: .top)]
        ).pixels
        #expect(short == long && short.width == 40 && short.height == 30)
        #expect(throws: CropKitError.invalidRequest(name: "height", reason: "0 must be at least 1")) {
            try ImagePipeline().run(photo, [.fit(10, 0)])
        }
    }
}
