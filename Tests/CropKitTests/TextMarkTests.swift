import CropCodecs
import CropPixels
import CropTestSupport
import Foundation
import Testing

@testable import CropKit

/// Text watermarks: FreeType's and HarfBuzz's drawing of a line against another stack's (uharfbuzz shaping,
/// freetype-py drawing; `Fixtures/text/make-reference.sh`), the mark's colours, outline and shadow on real pixels,
/// its size following the output's, its place in the pipeline, and fonts and lines that are refused by name.
@Suite("Text watermarks: shaped by HarfBuzz, drawn by FreeType, laid as a picture is")
struct TextMarkTests {
    static let fontPath = Fixtures.path("text/test-sans-bold.ttf")
    static func font() throws -> FontFace { try FontFace(contentsOfFile: fontPath) }

    struct Reference: Decodable {
        let name, text: String
        let size, x, baseline, advance: Double
        let width, height, glyphs: Int
    }

    static func references() throws -> [Reference] {
        try JSONDecoder().decode(
            [Reference].self, from: Data(try FileIO.readFile(atPath: Fixtures.path("text/reference.json"))))
    }

    @Test(
        "a line's coverage is the other stack's within 1/255 at 40 and 13 pixels, its advance within 1/64 pixel, its ligature one glyph"
    )
    func againstReference() throws {
        let font = try Self.font()
        #expect(font.family == "CropKit Test Sans" && font.style == "Bold")
        let references = try Self.references()
        try #require(references.count == 2)
        for reference in references {
            let ours = try font.coverage(
                of: reference.text, pixelSize: reference.size, width: reference.width, height: reference.height,
                x: reference.x, baseline: reference.baseline)
            let theirs = try ImageCodec.decode(
                try FileIO.readFile(atPath: Fixtures.path("text/reference-\(reference.name).png"))
            ).pixels
            try #require(theirs.width == reference.width && theirs.height == reference.height)
            var worst = 0, total = 0, inked = 0
            for y in 0..<reference.height {
                for x in 0..<reference.width {
                    let difference = abs(Int(ours[y * reference.width + x]) - theirs[x: x, y: y, channel: 0])
                    worst = max(worst, difference)
                    total += difference
                    if ours[y * reference.width + x] > 0 { inked += 1 }
                }
            }
            #expect(worst <= 1, "\(reference.name): largest difference \(worst)/255, total \(total)")
            #expect(inked > reference.width * reference.height / 8, "\(reference.name): \(inked) pixels inked")
            let metrics = try font.measure(reference.text, pixelSize: reference.size)
            #expect(abs(metrics.advance - reference.advance) <= 1.0 / 64, "\(metrics.advance) vs \(reference.advance)")
            #expect(metrics.glyphs == reference.glyphs)
        }
        // "ffi" is one glyph (the font's ligature), so the line has two glyphs fewer than characters.
        #expect(try font.measure("ffi", pixelSize: 20).glyphs == 1)
        // Unhinted, a line scales with its size: its advance at 10 × the size is 10 × its advance.
        let small = try font.measure("Wafer AVAT", pixelSize: 12),
            large = try font.measure("Wafer AVAT", pixelSize: 120)
        // (Each glyph's advance is rounded to 1/64 pixel at each size.)
        #expect(
            abs(large.advance - 10 * small.advance) <= Double(small.glyphs) * 10 / 128,
            "\(small.advance) → \(large.advance)")
        // Kerning pulls "AV" closer than "A" and "V" apart.
        let pair = try font.measure("AV", pixelSize: 100).advance
        let apart = try font.measure("A", pixelSize: 100).advance + font.measure("V", pixelSize: 100).advance
        #expect(pair < apart - 2, "AV \(pair), A + V \(apart)")
    }

    @Test("a mark's glyphs take its colour, its outline rings them, its shadow falls 1/16 of the size right and down")
    func coloursOutlineShadow() throws {
        let font = try Self.font()
        let grey = try makeBuffer(width: 600, height: 200, format: .rgb8) { _, _, _ in 128 }
        let yellow = PixelColor(red: 255, green: 204, blue: 0)
        let plain = try Watermark(text: try TextMark("HIH", font: font, color: yellow), gravity: .center, scale: 0.5)
        let outlined = try Watermark(
            text: try TextMark("HIH", font: font, color: yellow, outline: .black), gravity: .center, scale: 0.5)
        let shadowed = try Watermark(
            text: try TextMark("HIH", font: font, color: yellow, shadow: .black), gravity: .center, scale: 0.5)
        func count(_ picture: PixelBuffer, _ pixel: [Int]) -> Int {
            var n = 0
            for y in 0..<picture.height {
                for x in 0..<picture.width where picture.pixel(x: x, y: y) == pixel { n += 1 }
            }
            return n
        }
        func centroid(_ picture: PixelBuffer, where test: ([Int]) -> Bool) -> (x: Double, y: Double, count: Int) {
            var sx = 0.0, sy = 0.0, n = 0
            for y in 0..<picture.height {
                for x in 0..<picture.width where test(picture.pixel(x: x, y: y)) {
                    sx += Double(x)
                    sy += Double(y)
                    n += 1
                }
            }
            return (sx / Double(max(n, 1)), sy / Double(max(n, 1)), n)
        }
        let a = try plain.apply(to: grey), b = try outlined.apply(to: grey), c = try shadowed.apply(to: grey)
        // Inside the stems the glyphs are exactly the colour asked for; nothing is black without an outline.
        let solid = count(a, [255, 204, 0])
        #expect(solid > 2000, "\(solid) pixels of solid yellow")
        #expect(count(a, [0, 0, 0]) == 0)
        // The mark is 300 pixels wide (half the output) and centred.
        let box = WatermarkTests.changedBox(a, grey)
        #expect(abs((box.maxX - box.minX + 1) - 300) <= 2 && abs((box.minX + box.maxX) / 2 - 300) <= 2, "\(box)")
        // "HIH" inks its cap height, 0.729 em in DejaVu Sans Bold.
        let em = Double(box.maxY - box.minY + 1) / 0.729
        // The outline: solid black pixels, each within 1/16 em (and a pixel of anti-aliasing) of the yellow glyphs.
        let reach = Int((em / 16).rounded(.up)) + 1
        var ring = 0, near = 0
        for y in 0..<b.height {
            for x in 0..<b.width where b.pixel(x: x, y: y) == [0, 0, 0] {
                ring += 1
                search: for dy in -reach...reach {
                    for dx in -reach...reach where dx * dx + dy * dy <= reach * reach {
                        let px = x + dx, py = y + dy
                        if px >= 0, py >= 0, px < b.width, py < b.height, b[x: px, y: py, channel: 0] > 200 {
                            near += 1
                            break search
                        }
                    }
                }
            }
        }
        #expect(ring > 500 && near == ring, "\(ring) black pixels, \(near) of them near the glyphs (reach \(reach))")
        #expect(count(b, [255, 204, 0]) >= solid * 8 / 10)  // the outline does not eat the glyphs
        // The shadow: the darkened background's centroid sits right of and below the glyphs' by about 1/16 of the
        // size (the mark's box is outlined glyphs plus shadow room, so the size is measured from the glyphs' height).
        let glyphs = centroid(c, where: { $0[0] > 200 && $0[1] > 150 && $0[2] < 60 })
        let shade = centroid(c, where: { $0[0] < 100 && $0[0] == $0[1] && $0[1] == $0[2] })
        #expect(glyphs.count > 2000 && shade.count > 1000)
        #expect(shade.x - glyphs.x > em / 32 && shade.x - glyphs.x < em / 8, "shadow x \(shade.x - glyphs.x), em \(em)")
        #expect(shade.y - glyphs.y > em / 32 && shade.y - glyphs.y < em / 8, "shadow y \(shade.y - glyphs.y)")
    }

    @Test("a text mark is drawn at each output's size: its box keeps its proportions and follows the output's width")
    func followsTheOutput() throws {
        let mark = try Watermark(text: try TextMark("© Ada 2026", font: try Self.font(), outline: .black), margin: 0.02)
        var widths: [Int] = [], heights: [Int] = []
        for side in [200, 800, 2400] {
            let base = try makeBuffer(width: side, height: side / 2, format: .rgb8) { _, _, _ in 60 }
            let box = WatermarkTests.changedBox(try mark.apply(to: base), base)
            widths.append(box.maxX - box.minX + 1)
            heights.append(box.maxY - box.minY + 1)
            // Bottom-right, the margin from the edges (2% of the shorter side).
            let gap = Int((Double(side / 2) * 0.02).rounded())
            #expect(box.maxX <= side - gap && box.maxX >= side - gap - max(3, side / 100), "\(side): \(box)")
            #expect(box.maxY <= side / 2 - gap, "\(side): \(box)")
        }
        // A quarter of the output's width, within a pixel or two of its anti-aliased edge.
        for (side, width) in zip([200, 800, 2400], widths) {
            #expect(abs(width - side / 4) <= 3, "\(side): \(width)")
        }
        let ratios = zip(widths, heights).map { Double($1) / Double($0) }
        #expect(abs(ratios[1] - ratios[2]) < 0.01 && abs(ratios[0] - ratios[2]) < 0.05, "\(ratios)")
    }

    @Test("in a run: streamed with the rows or laid over the collected output, on every frame of an animation")
    func inThePipeline() throws {
        let source = ImageSource.data(try syntheticJPEG(width: 640, height: 480))
        let mark = try Watermark(
            text: try TextMark("Ada Photo", font: try Self.font(), shadow: PixelColor(gray: 0, alpha: 160)),
            gravity: .bottom, scale: 0.6, opacity: 0.8)
        for steps in [
            [ImageOperation.fit(within: PixelSize(validWidth: 300, height: 300))],
            [.straighten(5), .fit(within: PixelSize(validWidth: 250, height: 250))],
            [.thumbnail(ThumbnailRequest(side: 128, border: 4, cornerRadius: 16))],
        ] {
            let plain = try ImagePipeline().run(source, steps).pixels
            let marked = try ImagePipeline().run(source, steps + [.watermark(mark)]).pixels
            #expect(marked == (try mark.apply(to: plain)), "\(steps)")
            #expect(marked != plain)
        }
        let animation = try AnimationPipelineTests.movingDisc(count: 3)
        let output = try ImagePipeline().run(
            .data(animation), [.fit(100, 100), .watermark(mark)], to: .data(SaveOptions(format: .webp, lossless: true)))
        let frames = try AnimationPipelineTests.frames(output.bytes).frames
        try #require(frames.count == 3)
        let plain = try AnimationPipelineTests.frames(animation).frames
        for (index, frame) in frames.enumerated() {
            let expected = try mark.apply(to: try AnimationPipelineTests.alone(plain[index].picture, [.fit(100, 100)]))
            #expect(AnimationPipelineTests.visibleDifference(frame.picture, expected) <= 1, "frame \(index)")
        }
    }

    @Test("fonts that are no fonts, and lines a font cannot draw, are refused by name")
    func refusals() throws {
        let font = try Self.font()
        func reason(_ body: () throws -> Void) -> String {
            do { try body() } catch { return "\(error)" }
            return "no error"
        }
        // Not a font, cut short, a face the file lacks, nothing at all.
        let png = Fixtures.path("watermark/mark.png")
        #expect(
            reason { _ = try FontFace(contentsOfFile: png) }.hasPrefix(
                "cannot use the font \(png): FreeType cannot read it as a font"))
        let bytes = try FileIO.readFile(atPath: Self.fontPath)
        #expect(
            reason { _ = try FontFace(data: Array(bytes.prefix(3000)), name: "cut.ttf") }.hasPrefix(
                "cannot use the font cut.ttf:"))
        #expect(
            reason { _ = try FontFace(contentsOfFile: Self.fontPath, faceIndex: 3) }.contains("no face with that index")
        )
        #expect(reason { _ = try FontFace(data: [], name: "empty.ttf") }.hasPrefix("cannot use the font empty.ttf:"))
        #expect(reason { _ = try FontFace(contentsOfFile: "/nonexistent/font.ttf") }.contains("/nonexistent/font.ttf"))
        // Lines: a character the font lacks (named), a line break, nothing, too much, only spaces.
        #expect(
            reason { _ = try TextMark("Привет", font: font) }
                == "invalid watermark-text: the font CropKit Test Sans has no glyph for 'П' (U+041F)")
        #expect(reason { _ = try TextMark("two\nlines", font: font) }.contains("U+000A"))
        #expect(reason { _ = try TextMark("", font: font) }.hasPrefix("invalid watermark-text:"))
        #expect(
            reason { _ = try TextMark(String(repeating: "a", count: 1001), font: font) }.contains("1001 characters"))
        #expect(
            reason { _ = try TextMark("   ", font: font) }
                == "invalid watermark-text: '   ' draws nothing in CropKit Test Sans")
        // Sizes and planes out of range.
        #expect(throws: CodecError.self) { try font.measure("a", pixelSize: 0.5) }
        #expect(throws: CodecError.self) {
            try font.coverage(of: "a", pixelSize: 10, width: 40_000, height: 10, x: 0, baseline: 8)
        }
        // A line drawn past the plane's edges is clipped, not written out of bounds.
        let clipped = try font.coverage(of: "WWWW", pixelSize: 200, width: 50, height: 30, x: -40, baseline: 100)
        #expect(clipped.count == 1500 && clipped.contains { $0 > 0 })
    }

    @Test(
        "40 seeded hostile fonts (bits flipped in the tables and outlines, cut short) are refused or drawn clipped, never crash"
    )
    func hostileFonts() throws {
        let original = try FileIO.readFile(atPath: Self.fontPath)
        var state: UInt64 = 0x5EED
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var refused = 0, drawn = 0
        for trial in 0..<40 {
            var bytes = original
            for _ in 0..<(1 + next(200)) { bytes[next(bytes.count)] ^= UInt8(1 << next(8)) }
            if trial % 4 == 3 { bytes = Array(bytes.prefix(next(bytes.count))) }
            do {
                let font = try FontFace(data: bytes, name: "trial \(trial)")
                let plane = try font.coverage(of: "Hafi", pixelSize: 300, width: 120, height: 60, x: 2, baseline: 50)
                #expect(plane.count == 7200)
                drawn += 1
            } catch let error as CodecError {
                switch error {
                case .unusableFont, .invalidArgument: refused += 1
                default: Issue.record("trial \(trial): \(error)")
                }
            }
        }
        #expect(refused >= 1 && drawn >= 1, "\(refused) refused, \(drawn) drawn")
    }

    @Test(
        "the service's parameters: watermark-text with a named font and colours, refused when unknown or contradictory")
    func query() throws {
        let fonts = ["sans": try Self.font()]
        let query = try ImageQuery(
            query:
                "width=300&watermark-text=%C2%A9%20Ada&font=sans&watermark-color=%23FFCC00&watermark-shadow=black&watermark-scale=0.4",
            fonts: fonts)
        guard case .watermark(let mark)? = query.operations.last, case .text(let line) = mark.content else {
            Issue.record("no text mark in \(query.operations)")
            return
        }
        #expect(
            line.text == "© Ada" && line.color == PixelColor(red: 255, green: 204, blue: 0) && line.shadow == .black)
        #expect(line.outline == nil && mark.scale == 0.4)
        #expect(query.canonical.contains("font-digest=" + String(fonts["sans"]!.fingerprint, radix: 16)))
        // One font configured: font= may be left out.
        let alone = try ImageQuery(query: "watermark-text=Ada", fonts: fonts)
        #expect(alone.operations.contains { if case .watermark = $0 { true } else { false } }, "\(alone.operations)")
        for (text, expected) in [
            ("watermark-text=Ada&font=serif", "invalid font: no font named 'serif' (sans)"),
            (
                "watermark-text=Ada",
                "invalid font: no font is configured for watermark-text (cropkit serve --font NAME=FILE)"
            ),
            ("watermark-color=black", "invalid watermark-color: applies only with watermark-text=TEXT"),
            (
                "watermark=logo&watermark-text=Ada",
                "invalid watermark-text: applies only with watermark-text=TEXT, not with watermark=NAME"
            ),
            (
                "watermark-text=Ada&font=sans&watermark-outline=purple",
                "invalid watermark-outline: 'purple' is not a colour (#RGB, #RRGGBB, #RRGGBBAA, white or black)"
            ),
            (
                "watermark-text=%D0%96&font=sans",
                "invalid watermark-text: the font CropKit Test Sans has no glyph for 'Ж' (U+0416)"
            ),
        ] {
            let given = text.contains("font=sans") || text == "watermark-text=Ada&font=serif" ? fonts : [:]
            let logo = try Watermark(image: try WatermarkTests.fixture("mark.png"))
            #expect(throws: CropKitError.self) { try ImageQuery(query: text, watermarks: ["logo": logo], fonts: given) }
            do {
                _ = try ImageQuery(query: text, watermarks: ["logo": logo], fonts: given)
            } catch {
                #expect("\(error)" == expected)
            }
        }
    }
}
