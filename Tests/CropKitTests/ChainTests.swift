import CropCodecs
import CropTestSupport
import Foundation
import Testing

@testable import CropKit

/// The pipeline's one verb: every operation, their combinations, and that each chain gives exactly the pixels of the
/// single-purpose call it replaced.
@Suite("Pipeline chains")
struct ChainTests {
    /// Outputs of the single-purpose calls (`thumbnail`, `resize`, `orient`, `roundCorners`, `render`) as they were
    /// before the chain replaced them (commit b750a7d), made by `Fixtures/golden/GoldenGen.swift.txt`.
    struct Golden: Decodable {
        var name: String
        var width: Int
        var height: Int
        var channels: Int
        var samples: String

        func pixels() throws -> PixelBuffer {
            let bytes = try #require(Data(base64Encoded: samples))
            return try PixelBuffer(
                width: width, height: height, layout: [1: .gray, 2: .grayAlpha, 3: .rgb, 4: .rgba][channels] ?? .rgb,
                samples: [UInt8](bytes))
        }
    }

    static let golden: [Golden] = {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: Fixtures.path("golden/single-purpose-calls.json"))),
            let decoded = try? JSONDecoder().decode([Golden].self, from: data)
        else { return [] }
        return decoded
    }()

    static func landscape(_ orientation: Int) -> ImageSource { Fixtures.landscape(orientation) }
    static let rgba = ImageSource.file(
        URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/CropSamples/Samples/watercolor-rgba.png").standardized.path)
    static func box(_ w: Int, _ h: Int) -> PixelSize { PixelSize(validWidth: w, height: h) }

    /// The chain that replaces each golden call.
    static func chain(_ name: String) throws -> (ImageSource, [ImageOperation])? {
        switch name {
        case "thumbnail24-L1": (landscape(1), [.thumbnail(24)])
        case "thumbnail24-L6": (landscape(6), [.thumbnail(24)])
        case "thumbnail40-b3-r8-L3": (landscape(3), [.thumbnail(40, border: 3, cornerRadius: 8)])
        case "resize-w32-L1": (landscape(1), [.resize(width: 32)])
        case "resize-w32-L6": (landscape(6), [.resize(width: 32)])
        case "resize-w32-L7": (landscape(7), [.resize(width: 32)])
        case "resize-fill-top-L8": (landscape(8), [.fill(30, 30, gravity: .top)])
        case "resize-pad-white-L2":
            (
                landscape(2),
                [.resize(ResizeRequest(.box(box(40, 40)), mode: .pad(background: .white, alignment: .center)))]
            )
        case "resize-stretch-L4": (landscape(4), [.resize(ResizeRequest(.box(box(50, 20)), mode: .stretch))])
        case "resize-h20-linear-mitchell-L5":
            (landscape(5), [.resize(ResizeRequest(.height(20), filter: .mitchell, linearLight: true))])
        case "resize-up-w100-L1": (landscape(1), [.resize(width: 100, allowUpscale: true)])
        case "resize-noup-w100-L1": (landscape(1), [.resize(width: 100)])
        case "orient-L5": (landscape(5), [])
        case "orient-L8": (landscape(8), [])
        case "round-circle-b2-L6": (landscape(6), [.roundCorners(.circle, border: 2)])
        case "round-r6-L1": (landscape(1), [.roundCorners(.pixels(6))])
        case "render-recipe-7.5-L6":
            (landscape(6), [.recipe(try Recipe(cropSize: Size(width: 0.8, height: 0.8), angle: 7.5))])
        case "render-state-args-max30-L6":
            (
                landscape(6),
                [
                    .aspect(try .ratio(3, 2)), .crop(Rect(x: 5, y: 4, width: 40, height: 30)), .turn(.clockwise),
                    .flip(.horizontal), .straighten(-5), .fit(within: box(30, 30)),
                ]
            )
        case "render-state-rect-full-L6":
            (landscape(6), [.crop(Rect(x: 3, y: 2, width: 31, height: 17)), .turn(.counterClockwise)])
        case "render-straighten-full-L6": (landscape(6), [.straighten(7.5)])
        case "render-square-max20-L6": (landscape(6), [.aspect(.square), .fit(within: box(20, 20))])
        case "rgba-thumb-r10": (rgba, [.thumbnail(48, border: 4, cornerRadius: 10)])
        case "rgba-pad": (rgba, [.resize(ResizeRequest(.box(box(80, 80)), mode: .pad()))])
        default: nil
        }
    }

    @Test("each chain gives exactly the pixels of the single-purpose call it replaced (23 calls)")
    func chainsEqualTheCallsTheyReplaced() throws {
        #expect(Self.golden.count == 23)
        for golden in Self.golden {
            let (source, operations) = try #require(try Self.chain(golden.name), "no chain for \(golden.name)")
            let output = try ImagePipeline().run(source, operations)
            let expected = try golden.pixels()
            #expect(output.size == PixelSize(validWidth: golden.width, height: golden.height), "\(golden.name)")
            guard output.pixels.width == expected.width, output.pixels.height == expected.height,
                output.pixels.format == expected.format
            else {
                Issue.record("\(golden.name): \(output.pixels) is not \(expected)")
                continue
            }
            #expect(maxDifference(output.pixels, expected) == 0, "\(golden.name)")
        }
    }

    @Test("the CLI's crop steps fold into exactly the state CropState's one-step constructor makes (600 cases)")
    func foldEqualsArgumentsConstructor() throws {
        var rng = SplitMix64(seed: 77)
        let locks: [AspectLock?] = [nil, .free, .original, .square, try .ratio(16, 9), try .ratio(2, 3)]
        for _ in 0..<600 {
            let stored = PixelSize(validWidth: rng.int(20...900), height: rng.int(20...900))
            let orientation = rng.pick(Orientation.allCases)
            let shown = orientation.displayedSize(of: stored).size
            let rect: Rect? =
                rng.bool()
                ? Rect(
                    x: rng.double(0...0.5) * shown.width, y: rng.double(0...0.5) * shown.height,
                    width: rng.double(0.1...0.5) * shown.width, height: rng.double(0.1...0.5) * shown.height)
                : nil
            let turns = rng.int(0...3), flipH = rng.bool(), flipV = rng.bool()
            let angle = rng.bool() ? rng.double(-45...45) : 0
            let lock = rng.pick(locks)
            let expected = try CropState(
                sourceSize: stored, orientation: orientation, crop: rect, quarterTurns: turns, flipHorizontal: flipH,
                flipVertical: flipV, straighten: angle, aspect: lock)
            var steps: [ImageOperation] = []
            if let lock { steps.append(.aspect(lock)) }
            if let rect { steps.append(.crop(rect)) }
            steps += Array(repeating: .turn(.clockwise), count: turns)
            if flipH { steps.append(.flip(.horizontal)) }
            if flipV { steps.append(.flip(.vertical)) }
            if angle != 0 { steps.append(.straighten(angle)) }
            let plan = try PipelinePlan(steps, storedSize: stored, orientation: orientation, maxThreads: 1)
            #expect(
                plan.state.isApproximatelyEqual(to: expected, tolerance: 1e-9),
                "\(stored) \(orientation) \(String(describing: rect)) \(turns) \(flipH) \(flipV) \(angle) \(String(describing: lock))"
            )
            let (a, b) = (plan.state.renderPlan(), expected.renderPlan())
            #expect(a.outputSize == b.outputSize && a.orientation == b.orientation)
            let ta = a.transform, tb = b.transform
            #expect(
                [ta.a - tb.a, ta.b - tb.b, ta.c - tb.c, ta.d - tb.d, ta.tx - tb.tx, ta.ty - tb.ty]
                    .allSatisfy { abs($0) <= 1e-9 })
        }
    }

    @Test("steps out of order, a second size step, or a recipe after other geometry are refused before reading")
    func orderIsEnforced() throws {
        let missing = ImageSource.file("/nonexistent/never-read.jpg")
        let bad: [[ImageOperation]] = [
            [.resize(width: 10), .crop(Rect(x: 0, y: 0, width: 5, height: 5))],
            [.roundCorners(.circle), .fit(within: Self.box(10, 10))],
            [.fit(within: Self.box(10, 10)), .thumbnail(8)],
            [.turn(.clockwise), .recipe(try Recipe())],
            [.straighten(46)],
            [.straighten(.nan)],
            [.crop(Rect(x: 0, y: 0, width: 0, height: 5))],
            [.border(-1)],
            [.thumbnail(10, border: 5)],
        ]
        for chain in bad {
            let error = #expect(throws: CropKitError.self) { try ImagePipeline().run(missing, chain) }
            guard case .invalidRequest = error else {
                Issue.record("\(chain): \(String(describing: error)) is not a request error (was the file read?)")
                continue
            }
        }
        // Straightens add up: 30 + 20 leaves the range.
        #expect(throws: CropKitError.self) {
            try ImagePipeline().run(Self.landscape(1), [.straighten(30), .straighten(20)])
        }
        #expect(
            try ImagePipeline().run(Self.landscape(1), [.straighten(30), .straighten(-20)]).report.cropState
                .straightenAngle == 10)
    }

    @Test("crop: in displayed pixels; clipped with a warning when partly outside, an error when wholly outside")
    func cropClipping() throws {
        let clipped = try ImagePipeline().run(Self.landscape(6), [.crop(Rect(x: 40, y: 30, width: 50, height: 50))])
        #expect(clipped.size == Self.box(24, 13))
        #expect(
            clipped.report.warnings == [
                .cropClipped(
                    requested: Rect(x: 40, y: 30, width: 50, height: 50),
                    clipped: Rect(x: 40, y: 30, width: 24, height: 13),
                    picture: Size(width: 64, height: 43))
            ])
        let error = #expect(throws: CropKitError.self) {
            try ImagePipeline().run(Self.landscape(6), [.crop(Rect(x: 70, y: 0, width: 5, height: 5))])
        }
        #expect(error?.description.contains("outside the 64×43 picture") == true)
    }

    @Test("turn and flip act on the picture as shown; the crop after them is in the turned picture's pixels")
    func turnFlipThenCrop() throws {
        let upright = try Image(source: Self.landscape(1)).pixels  // 64×43
        let turned = try ImagePipeline().run(Self.landscape(1), [.turn(.clockwise)]).pixels
        #expect(turned == upright.applyingOrientation(.rightTop))
        let flipped = try ImagePipeline().run(Self.landscape(1), [.flip(.vertical)]).pixels
        #expect(flipped == upright.applyingOrientation(.bottomLeft))
        // After a clockwise turn the picture is 43×64: a crop of its top-left 20×10 is the upright picture's
        // bottom-left 10×20, turned.
        let cut = try ImagePipeline().run(
            Self.landscape(1), [.turn(.clockwise), .crop(Rect(x: 0, y: 0, width: 20, height: 10))]
        )
        .pixels
        #expect(cut == (try upright.cropped(x: 0, y: 23, width: 10, height: 20)).applyingOrientation(.rightTop))
    }

    @Test("aspect narrows the current crop; with no region step the picture's own ratio is kept exactly")
    func aspectRules() throws {
        let square = try ImagePipeline().run(
            Self.landscape(1), [.crop(Rect(x: 0, y: 0, width: 40, height: 30)), .aspect(.square)])
        #expect(square.size == Self.box(30, 30))
        let both = try ImagePipeline().run(
            Self.landscape(1), [.aspect(.square), .crop(Rect(x: 0, y: 0, width: 40, height: 30))])
        #expect(both.pixels == square.pixels)
        // 2000×1000 straightened by 10°: 2:1 exactly, as the `.original` default promises.
        let wide = try syntheticJPEG(width: 2000, height: 1000)
        let level = try ImagePipeline().run(.data(wide), [.straighten(10)], to: .data())
        #expect(level.size.width == 2 * level.size.height)
        #expect(level.report.cropState.aspectLock == .original)
    }

    @Test("fit keeps a lock's exact proportions, never enlarges unless asked, and enlarges in one pass when asked")
    func fitRules() throws {
        let p = ImagePipeline()
        let locked = try p.run(Self.landscape(1), [.aspect(try .ratio(4, 3)), .fit(within: Self.box(30, 30))])
        #expect(locked.size == Self.box(28, 21))
        #expect(try p.run(Self.landscape(1), [.fit(within: Self.box(500, 500))]).size == Self.box(64, 43))
        let up = try p.run(
            Self.landscape(1), [.aspect(try .ratio(4, 3)), .fit(within: Self.box(120, 120), allowUpscale: true)])
        #expect(up.size == Self.box(120, 90))
        // A straightened crop enlarged in the same pass has no fill: a flat picture stays flat.
        var flat = try PixelBuffer(width: 60, height: 40, format: .rgb8)
        flat.withUnsafeMutableRows { rows in for y in 0..<40 { rows.row8(y).update(repeating: 90, count: 180) } }
        let big = try p.run(
            .data(try ImageCodec.encode(flat, as: .png)),
            [.straighten(12), .fit(within: Self.box(200, 200), allowUpscale: true)])
        // The picture's own 3:2, exactly, as large as fits in 200×200: 66 × (3, 2).
        #expect(big.size == Self.box(198, 132))
        #expect(big.pixels.samples.allSatisfy { abs($0 - 90) <= 1 })
    }

    @Test("pixel steps: border grows the picture, background removes alpha, they run in order after the resample")
    func pixelSteps() throws {
        let p = ImagePipeline()
        let bordered = try p.run(Self.landscape(1), [.resize(width: 32), .border(3, color: .white)])
        #expect(bordered.size == Self.box(38, 28) && bordered.pixels.format == .rgb8)
        #expect(
            bordered.pixels.pixel(x: 0, y: 0) == [255, 255, 255]
                && bordered.pixels.pixel(x: 37, y: 27) == [255, 255, 255])
        let transparent = try p.run(Self.landscape(1), [.border(2)])
        #expect(transparent.pixels.format == .rgba8 && transparent.pixels[x: 0, y: 0, channel: 3] == 0)
        // A circle, then a black background: corners black, centre the picture, no alpha left.
        let avatar = try p.run(Self.landscape(6), [.roundCorners(.circle), .background(.black)])
        #expect(avatar.pixels.format == .rgb8 && avatar.size == Self.box(43, 43))
        #expect(avatar.pixels.pixel(x: 0, y: 0) == [0, 0, 0])
        let circle = try p.run(Self.landscape(6), [.roundCorners(.circle)]).pixels
        #expect(avatar.pixels == circle.flattened(over: .black))
    }

    @Test("the three sinks return typed outputs of the same pixels; the report carries the folded crop")
    func sinks() throws {
        let steps: [ImageOperation] = [.crop(Rect(x: 4, y: 4, width: 30, height: 20)), .straighten(3)]
        let image = try ImagePipeline().run(Self.landscape(6), steps, to: .image)
        let data = try ImagePipeline().run(Self.landscape(6), steps, to: .data(SaveOptions(format: .png)))
        #expect(data.format == .png && data.size == image.size)
        #expect(try Image(source: .data(data.bytes)).pixels == image.pixels)
        try withScratchFolder { dir throws in
            let file = try ImagePipeline().run(Self.landscape(6), steps, to: .file(dir + "/o.png"))
            #expect(file.path == dir + "/o.png" && file.format == .png && file.byteCount == data.bytes.count)
            #expect(try Data(contentsOf: URL(fileURLWithPath: file.path)) == Data(data.bytes))
        }
        let state = image.report.cropState
        #expect(state.straightenAngle == 3)
        #expect(try ImagePipeline().cropState(Self.landscape(6), steps) == state)
        // The recipe replays to the same pixels.
        #expect(try ImagePipeline().run(Self.landscape(6), [.recipe(state.recipe)]).pixels == image.pixels)
    }
}
