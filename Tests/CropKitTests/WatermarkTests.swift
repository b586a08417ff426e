import CropCodecs
import CropPixels
import CropTestSupport
import Foundation
import Testing

@testable import CropKit

/// Watermarks: the composite against libvips' `composite2` (mode over) on an opaque and a transparent background,
/// the placement, tiling, the premultiplied resample (no fringe), the place in the pipeline (after the resize and the
/// other pixel steps, on every frame) and hostile marks.
@Suite("Watermarks: composited as libvips does, after every other step")
struct WatermarkTests {
    static func fixture(_ name: String) throws -> PixelBuffer {
        try ImageCodec.decode(try FileIO.readFile(atPath: Fixtures.path("watermark/" + name))).pixels
    }

    /// The largest difference between two pictures as they show, in 1/255: of alpha, and of each colour weighted by
    /// the larger alpha (colour under a transparent pixel does not show). libvips truncates where CropKit rounds, so
    /// the two differ by up to one level in each.
    static func difference(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
        let p = a.rgba8Samples(), q = b.rgba8Samples()
        var worst = 0.0
        for i in stride(from: 0, to: min(p.count, q.count), by: 4) {
            let pa = Double(p[i + 3]), qa = Double(q[i + 3])
            worst = max(worst, abs(pa - qa))
            for c in 0..<3 { worst = max(worst, abs(Double(p[i + c]) - Double(q[i + c])) * max(pa, qa) / 255) }
        }
        return Int(worst.rounded(.up))
    }

    @Test(
        "the composite is libvips' composite2 over within 1/255, on an opaque and on a transparent background",
        arguments: [
            ("opaque", "mark", 1.0), ("alpha", "mark", 1.0), ("opaque", "mark-half", 1.0), ("alpha", "mark-half", 1.0),
            ("opaque", "mark", 0.5), ("alpha", "mark", 0.5),
        ])
    func againstVips(_ base: String, _ mark: String, _ opacity: Double) throws {
        let picture = try Self.fixture("base-\(base).png"), overlay = try Self.fixture(mark + ".png")
        let ours = try picture.composited(overlay, x: 33, y: 30, opacity: opacity)
        // Opacity 0.5 of the mark is what vips gives for the mark with its alpha halved.
        let vips = try Self.fixture("vips-\(base)-\(opacity < 1 ? "mark-half" : mark).png")
        #expect(ours.format == picture.format)  // an opaque picture stays RGB
        let tolerance = opacity < 1 ? 2 : 1  // halving the alpha in 8 bits first moves it by up to half a level
        #expect(Self.difference(ours, vips) <= tolerance, "\(Self.difference(ours, vips))")
        #expect(Self.difference(ours, picture) > 60)  // the mark is there
    }

    @Test("placed by its gravity and margin at its scale, or tiled the margin apart; kept inside a short output")
    func placement() throws {
        let mark = try Watermark(image: try Self.fixture("mark.png"), scale: 0.25, margin: 0.02)
        let base = try makeBuffer(width: 400, height: 300, format: .rgb8) { _, _, _ in 30 }
        let out = try mark.apply(to: base)
        // 100×50 at bottom-right, 6 px (2% of 300) from the edges: x 294…393, y 244…293.
        let changed = Self.changedBox(out, base)
        #expect(changed.minX >= 294 && changed.maxX < 394 && changed.minY >= 244 && changed.maxY < 294, "\(changed)")
        #expect(out.pixel(x: 294 + 25, y: 244 + 25) == [255, 255, 255])  // the disc's centre
        var topLeft = mark
        topLeft.gravity = .topLeft
        let left = Self.changedBox(try topLeft.apply(to: base), base)
        #expect(left.minX >= 6 && left.maxX < 106 && left.minY >= 6 && left.maxY < 56)
        // Tiled: every cell of a 3 × 5 grid carries a disc.
        var tiled = mark
        tiled.tile = true
        let tiles = try tiled.apply(to: base)
        for row in 0..<5 {
            for column in 0..<3 {
                let x = 6 + column * 106 + 25, y = 6 + row * 56 + 25
                #expect(tiles.pixel(x: x, y: y) == [255, 255, 255], "tile \(column),\(row)")
            }
        }
        // A wide output too short for the mark at its scale: the mark shrinks to fit between the margins.
        let banner = try makeBuffer(width: 1000, height: 40, format: .rgb8) { _, _, _ in 30 }
        let fitted = Self.changedBox(try mark.apply(to: banner), banner)
        #expect(fitted.minY >= 1 && fitted.maxY < 39)
    }

    @Test("a mark enlarged over light grey shows no dark fringe: it is resampled premultiplied")
    func noFringe() throws {
        let mark = try Watermark(image: try Self.fixture("mark.png"), scale: 0.6, margin: 0)
        let light = try makeBuffer(width: 300, height: 200, format: .rgb8) { _, _, _ in 230 }
        let out = try mark.apply(to: light)
        // White (255) and red (220, 30, 40) over 230: every red sample lies between the background's and the mark's,
        // so none falls below 220. A resample in straight alpha mixes the transparent pixels' black into the edge:
        // half-covered edge pixels of about 128 at alpha 0.5 would composite to about 179, a dark ring. Premultiplied
        // Lanczos rings by a level or two at most.
        var darkest = 255
        for y in 0..<out.height {
            for x in 0..<out.width { darkest = min(darkest, out[x: x, y: y, channel: 0]) }
        }
        #expect(darkest >= 218, "darkest red sample \(darkest)")
        #expect(Self.changedBox(out, light).maxX > 100)
    }

    @Test("in a run the mark goes over the finished output: the same bytes as marking the output afterwards")
    func inThePipeline() throws {
        let source = ImageSource.data(try syntheticJPEG(width: 640, height: 480))
        let mark = try Watermark(image: try Self.fixture("mark.png"), gravity: .bottom, scale: 0.3, opacity: 0.5)
        let tiled = try Watermark(image: try Self.fixture("mark.png"), scale: 0.1, opacity: 0.7, tile: true)
        // Marks alone stream with the rows (axis-aligned and straightened); with other steps the output is
        // collected and marked last. Either way, the same pixels.
        for steps in [
            [ImageOperation.fit(within: PixelSize(validWidth: 300, height: 300))],
            [.straighten(5), .fit(within: PixelSize(validWidth: 250, height: 250))],
            [
                .straighten(7.5),
                .resize(ResizeRequest(.box(PixelSize(validWidth: 200, height: 200)), mode: .pad(background: .white))),
            ],
            [.thumbnail(ThumbnailRequest(side: 128, border: 4, cornerRadius: 16))],
        ] {
            let plain = try ImagePipeline().run(source, steps).pixels
            for chosen in [mark, tiled] {
                let marked = try ImagePipeline().run(source, steps + [.watermark(chosen)]).pixels
                #expect(marked == (try chosen.apply(to: plain)), "\(steps)")
                #expect(marked != plain)
                let encoded = try ImagePipeline().run(
                    source, steps + [.watermark(chosen)], to: .data(SaveOptions(format: .png)))
                #expect(try ImageCodec.decode(encoded.bytes).pixels == marked)
            }
        }
        // Before another pixel step is an order error, as for any step; after them it is the last.
        let withRound = try ImagePipeline().run(source, [.fit(120, 120), .roundCorners(.circle), .watermark(mark)])
            .pixels
        let rounded = try ImagePipeline().run(source, [.fit(120, 120), .roundCorners(.circle)]).pixels
        #expect(withRound == (try mark.apply(to: rounded)))
    }

    @Test("every frame of an animation is marked")
    func everyFrame() throws {
        let source = try AnimationPipelineTests.movingDisc(count: 3)
        let mark = try Watermark(image: try Self.fixture("mark.png"), scale: 0.4)
        let output = try ImagePipeline().run(
            .data(source), [.fit(100, 100), .watermark(mark)], to: .data(SaveOptions(format: .webp, lossless: true)))
        let frames = try AnimationPipelineTests.frames(output.bytes).frames
        try #require(frames.count == 3)
        let plain = try AnimationPipelineTests.frames(source).frames
        for (index, frame) in frames.enumerated() {
            let expected = try mark.apply(to: try AnimationPipelineTests.alone(plain[index].picture, [.fit(100, 100)]))
            #expect(AnimationPipelineTests.visibleDifference(frame.picture, expected) <= 1, "frame \(index)")
        }
    }

    @Test("a mark's ICC profile is honoured; out-of-range settings and hostile files are refused by name")
    func loadingAndErrors() throws {
        let p3 = try Watermark(contentsOfFile: Fixtures.path("color/canon-saturated-p3-107x71.jpg"))
        let vips = try ImageCodec.decode(
            try FileIO.readFile(
                atPath: Fixtures.path(
                    "color/canon-saturated-p3-107x71-vips-srgb.png"))
        ).pixels
        guard case .image(let converted) = p3.content else {
            Issue.record("not a picture")
            return
        }
        #expect(Self.difference(converted, vips) <= 3)
        let image = try Self.fixture("mark.png")
        for (scale, opacity, margin, name) in [
            (0.0, 1.0, 0.0, "watermark-scale"), (1.5, 1, 0, "watermark-scale"),
            (0.2, 1.2, 0, "watermark-opacity"), (0.2, 1, 0.7, "watermark-margin"),
        ] {
            #expect {
                try Watermark(image: image, scale: scale, opacity: opacity, margin: margin)
            } throws: { error in
                guard case CropKitError.invalidRequest(let named, _) = error else { return false }
                return named == name
            }
        }
        try withScratchFolder { folder in
            let corrupt = folder + "/mark.png"
            try Data(try FileIO.readFile(atPath: Fixtures.path("watermark/mark.png")).prefix(60)).write(
                to: URL(fileURLWithPath: corrupt))
            #expect(throws: CropKitError.self) { try Watermark(contentsOfFile: corrupt) }
            #expect(throws: CropKitError.self) {
                try Watermark(
                    contentsOfFile: Fixtures.path("watermark/base-alpha.png"), limits: PixelLimits(maxPixels: 1000))
            }
        }
    }

    /// The bounding box of the pixels that differ.
    static func changedBox(_ a: PixelBuffer, _ b: PixelBuffer) -> (minX: Int, minY: Int, maxX: Int, maxY: Int) {
        var box = (minX: Int.max, minY: Int.max, maxX: -1, maxY: -1)
        for y in 0..<a.height {
            for x in 0..<a.width where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) {
                box = (min(box.minX, x), min(box.minY, y), max(box.maxX, x), max(box.maxY, y))
            }
        }
        return box
    }
}
