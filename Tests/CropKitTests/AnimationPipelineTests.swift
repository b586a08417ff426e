import CropCodecs
import CropTestSupport
import Foundation
import Testing

@testable import CropKit

/// Animations through the one pipeline: every frame through the same plan, written with its delay and the play
/// count. The oracle for each output frame is that frame rendered alone (as a PNG through the same steps); the frame
/// readers are checked against Pillow's `ImageSequence` in CropCodecsTests.
@Suite("Animations: every frame, the same steps")
struct AnimationPipelineTests {
    /// `dispose_bgnd_transparency.gif` (Pillow's test images: 38×32, 10 frames, transparency, frames smaller than
    /// the canvas, disposal to background) and `animated.webp` (64×48, 3 frames).
    static let gif = Fixtures.path("dispose_bgnd_transparency.gif")
    static let webp = Fixtures.path("animated.webp")

    /// Every frame of an animation as the readers composite it, with its delay.
    static func frames(_ bytes: [UInt8]) throws -> (frames: [(picture: PixelBuffer, delay: Int)], info: ImageInfo) {
        let reader: any AnimationFrames =
            try ImageFormat.detect(bytes) == .gif ? try GIFFrames(data: bytes) : try WebPFrames(data: bytes)
        var frames: [(picture: PixelBuffer, delay: Int)] = []
        while let frame = try reader.next() { frames.append((frame.picture, frame.delayMilliseconds)) }
        return (frames, reader.info)
    }

    /// `frame` rendered alone through `operations`: the oracle.
    static func alone(_ frame: PixelBuffer, _ operations: [ImageOperation]) throws -> PixelBuffer {
        try ImagePipeline().run(.data(try ImageCodec.encode(frame, as: .png)), operations).pixels
    }

    /// A 120×80 animation of `count` frames: a gradient that brightens from frame to frame (so no two frames are
    /// alike: libwebp would store a repeated frame as a longer delay of the one before) with a bright disc that moves
    /// from left to right, and a transparent band at the top, written as a lossless WebP.
    static func movingDisc(count: Int = 4) throws -> [UInt8] {
        let encoder = try WebPAnimationEncoder(
            width: 120, height: 80, playCount: 3, options: WebPEncodeOptions(quality: 50, lossless: true))
        for k in 0..<count {
            var frame = try PixelBuffer(width: 120, height: 80, format: .rgba8)
            let cx = 20.0 + 80.0 * Double(k) / Double(Swift.max(1, count - 1))
            for y in 0..<80 {
                for x in 0..<120 {
                    let inDisc = (Double(x) - cx) * (Double(x) - cx) + (Double(y) - 20) * (Double(y) - 20) < 144
                    frame.setPixel(
                        x: x, y: y, inDisc ? [250, 240, 60, 255] : [40 + x / 2 + 8 * k, 60 + y, 90, y < 8 ? 0 : 255])
                }
            }
            try encoder.add(frame, delayMilliseconds: 40 + 10 * k)
        }
        return try encoder.finish()
    }

    /// The largest channel difference between two RGBA pictures, where colour under alpha 0 does not count.
    static func visibleDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
        var worst = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.pixel(x: x, y: y), q = b.pixel(x: x, y: y)
                let channels = p[3] == 0 && q[3] == 0 ? 3...3 : 0...3
                for c in channels { worst = Swift.max(worst, abs(p[c] - q[c])) }
            }
        }
        return worst
    }

    static let steps: [[ImageOperation]] = [
        [.straighten(7.5), .aspect(.ratio(try! AspectRatio(4, 3))), .fit(48, 48)],
        [.crop(Rect(x: 3, y: 2, width: 30, height: 24)), .turn(.clockwise), .flip(.horizontal)],
        [.fill(24, 24, gravity: .bottomRight)],
        [.thumbnail(20, cornerRadius: 5)],
    ]

    @Test(
        "lossless WebP out: every frame equals that frame rendered alone (colour under alpha 0 aside), with the source's delays and play count; the aspect is exact on every frame",
        arguments: [0, 1, 2, 3])
    func everyFrameAsAlone(_ stepIndex: Int) throws {
        let operations = Self.steps[stepIndex]
        for source in [
            try FileIO.readFile(atPath: Self.gif), try FileIO.readFile(atPath: Self.webp), try Self.movingDisc(),
        ] {
            let (input, info) = try Self.frames(source)
            let output = try ImagePipeline().run(
                .data(source), operations, to: .data(SaveOptions(format: .webp, lossless: true)))
            #expect(output.format == .webp && output.report.frames == input.count)
            let (written, writtenInfo) = try Self.frames(output.bytes)
            #expect(written.count == input.count)
            #expect(written.map(\.delay) == input.map(\.delay))
            #expect(writtenInfo.playCount == (info.playCount ?? 1))
            for (frame, out) in zip(input, written) {
                let oracle = try Self.alone(frame.picture, operations)
                #expect(out.picture.width == oracle.width && out.picture.height == oracle.height)
                #expect(
                    Self.visibleDifference(
                        out.picture.format == .rgba8 ? out.picture : out.picture.addingAlpha(),
                        oracle.format == .rgba8 ? oracle : oracle.addingAlpha()) == 0)
            }
            if stepIndex == 0 { #expect(written[0].picture.width * 3 == written[0].picture.height * 4) }
        }
    }

    @Test(
        "a smart gravity chooses one window for the whole animation, the one holding the most interest over all frames (the mean frame's), so the picture does not jump",
        arguments: [Gravity.attention, .entropy])
    func oneWindow(_ gravity: Gravity) throws {
        let source = try Self.movingDisc(count: 5)
        let operations: [ImageOperation] = [.aspectCrop(try AspectRatio(1, 1), gravity: gravity)]
        let output = try ImagePipeline().run(
            .data(source), operations, to: .data(SaveOptions(format: .webp, lossless: true)))
        let (input, _) = try Self.frames(source)
        let (written, _) = try Self.frames(output.bytes)
        // The mean of the five frames, measured alone, gives the animation's window.
        var sums = [Int](repeating: 0, count: 120 * 80 * 4)
        for frame in input {
            for y in 0..<80 {
                for x in 0..<120 {
                    for (c, v) in frame.picture.pixel(x: x, y: y).enumerated() { sums[(y * 120 + x) * 4 + c] += v }
                }
            }
        }
        let mean = try PixelBuffer(width: 120, height: 80, layout: .rgba, samples: sums.map { UInt8(($0 + 2) / 5) })
        let window = try ImagePipeline().cropState(.data(try ImageCodec.encode(mean, as: .png)), operations)
        #expect(output.report.cropState == window)
        // The first and the last frame alone would each choose another window (the disc moves across).
        for index in [0, 4] {
            let alone = try ImagePipeline().cropState(
                .data(try ImageCodec.encode(input[index].picture, as: .png)), operations)
            #expect(alone != window, "frame \(index)")
        }
        for (frame, out) in zip(input, written) {
            #expect(Self.visibleDifference(out.picture, try Self.alone(frame.picture, [.cropState(window)])) == 0)
        }
    }

    @Test(
        "GIF out: frame count, delays (GIF's hundredths) and play count kept; colours within giflib's quantising of the frame rendered alone, alpha cut at 128"
    )
    func gifOut() throws {
        let source = try Self.movingDisc()
        let (input, _) = try Self.frames(source)
        let operations: [ImageOperation] = [.straighten(-4), .fit(90, 90)]
        let output = try ImagePipeline().run(.data(source), operations, to: .data(SaveOptions(format: .gif)))
        let (written, info) = try Self.frames(output.bytes)
        #expect(written.count == 4 && info.playCount == 3)
        #expect(written.map(\.delay) == [40, 50, 60, 70])
        for (frame, out) in zip(input, written) {
            let oracle = try Self.alone(frame.picture, operations)
            var alphaWrong = 0, colourSum = 0, colourCount = 0, colourWorst = 0
            for y in 0..<oracle.height {
                for x in 0..<oracle.width {
                    let p = out.picture.pixel(x: x, y: y), q = oracle.pixel(x: x, y: y)
                    if (p[3] == 255) != (q[3] >= 128) || (p[3] != 0 && p[3] != 255) { alphaWrong += 1 }
                    guard p[3] == 255 else { continue }
                    for c in 0..<3 {
                        colourSum += abs(p[c] - q[c])
                        colourWorst = Swift.max(colourWorst, abs(p[c] - q[c]))
                    }
                    colourCount += 3
                }
            }
            #expect(alphaWrong == 0)
            let mean = Double(colourSum) / Double(colourCount)
            #expect(mean <= 2.5 && colourWorst <= 24, "mean \(mean), worst \(colourWorst)")
        }
    }

    @Test(
        "a still output gets the first frame and a warning that counts the dropped frames; frames: .first asks for it without one"
    )
    func stillOutputs() throws {
        let source = try FileIO.readFile(atPath: Self.gif)
        let first = try Self.frames(source).frames[0].picture
        let png = try ImagePipeline().run(.data(source), [.fit(30, 30)], to: .data(SaveOptions(format: .png)))
        #expect(png.report.frames == 1)
        #expect(
            png.report.warnings.map(\.description) == [
                "PNG holds one picture: the first of the animation's 10 frames is written, 9 are dropped (GIF, WebP and AVIF keep them all)"
            ])
        #expect(
            Self.visibleDifference(try ImageCodec.decode(png.bytes).pixels, try Self.alone(first, [.fit(30, 30)])) == 0)
        var options = SaveOptions(format: .webp, lossless: true)
        options.frames = .first
        let still = try ImagePipeline().run(.data(source), [.fit(30, 30)], to: .data(options))
        #expect(still.report.warnings.isEmpty && still.report.frames == 1)
        #expect(try ImageInfo.read(still.bytes).frameCount == nil)
        // Pixels out: the first frame, no warning (a pixel buffer is one picture by nature).
        #expect(try ImagePipeline().run(.data(source), [.fit(30, 30)]).report.warnings.isEmpty)
    }

    @Test(
        "frames × canvas pixels past the animation limit is refused before any frame is decoded, and nothing is written"
    )
    func animationLimit() throws {
        try withScratchFolder { (folder: String) throws -> Void in
            // 10 frames × 38 × 32 = 12,160 pixels.
            let pipeline = ImagePipeline(limits: PixelLimits(maxAnimationPixels: 12_159))
            let path = folder + "/out.gif"
            #expect(
                throws: CropKitError.pixels(.tooManyAnimationPixels(frames: 10, width: 38, height: 32, limit: 12_159))
            ) {
                try pipeline.run(.file(Self.gif), [.fit(20, 20)], to: .file(path))
            }
            #expect(!FileManager.default.fileExists(atPath: path))
            // At the limit it runs; a still output does not count frames.
            let fits = ImagePipeline(limits: PixelLimits(maxAnimationPixels: 12_160))
            #expect(try fits.run(.file(Self.gif), [.fit(20, 20)], to: .file(path)).report.frames == 10)
            #expect(
                try pipeline.run(.file(Self.gif), [.fit(20, 20)], to: .data(SaveOptions(format: .png))).report.frames
                    == 1)
        }
    }

    @Test(
        "the memory plan of an animation counts five canvases and an encoder holding every encoded frame; a still output of it does not"
    )
    func memoryPlan() throws {
        let source = ImageSource.file(Self.gif)  // 10 frames of 38×32
        let animated = try ImagePipeline().memoryPlan(source, [.fit(20, 20)], to: .data(SaveOptions(format: .gif)))
        let still = try ImagePipeline().memoryPlan(source, [.fit(20, 20)], to: .data(SaveOptions(format: .png)))
        #expect(animated.decoderBytes == 5 * 38 * 32 * 4)
        #expect(animated.encoderBytes == 24 * 20 * 17 + 10 * 20 * 17 + (4 << 20))
        #expect(still.decoderBytes < animated.decoderBytes && still.peakBytes < animated.peakBytes)
    }

    @Test(
        "an AVIF image sequence (libavif's star.avifs, 5 frames) turned and resized stays a sequence: 5 frames of 40 ms, each within AV1's loss of that frame rendered alone; as WebP too"
    )
    func avifSequence() throws {
        let source = try FileIO.readFile(atPath: Fixtures.path("star.avifs"))
        let input = try AVIFFrames(data: source)
        var frames: [PixelBuffer] = []
        while let frame = try input.next() { frames.append(frame.picture) }
        let operations: [ImageOperation] = [.turn(.clockwise), .fit(80, 80)]
        for format in [ImageFormat.avif, .webp] {
            let output = try ImagePipeline().run(
                .data(source), operations, to: .data(SaveOptions(format: format, quality: 90)))
            #expect(output.format == format && output.report.frames == 5)
            let reader: any AnimationFrames =
                format == .avif
                ? try AVIFFrames(data: output.bytes) : try WebPFrames(data: output.bytes)
            var index = 0
            while let (picture, delay) = try reader.next() {
                let oracle = try Self.alone(frames[index], operations)
                #expect(picture.width == 80 && picture.height == 80 && delay == 40)
                var sum = 0, n = 0
                for y in 0..<80 {
                    for x in 0..<80 {
                        let p = picture.pixel(x: x, y: y), q = oracle.pixel(x: x, y: y)
                        for c in 0..<4 where c == 3 || q[3] > 0 {
                            sum += abs(p[c] - q[c])
                            n += 1
                        }
                    }
                }
                #expect(Double(sum) / Double(n) < 3, "\(format) frame \(index): mean \(Double(sum) / Double(n))")
                index += 1
            }
            #expect(index == 5)
        }
    }

    @Test(
        "a JPEG XL animation (4 blended RGBA frames) stays an animation: as lossless WebP, every frame that frame rendered alone, with its delay; a still output gets the first frame and the dropped-frames warning"
    )
    func jxlAnimation() throws {
        let source = try FileIO.readFile(atPath: Fixtures.path("animated-disc.jxl"))
        let input = try JXLFrames(data: source)
        var frames: [(PixelBuffer, Int)] = []
        while let frame = try input.next() { frames.append(frame) }
        try #require(frames.count == 4)
        let operations: [ImageOperation] = [.turn(.counterClockwise), .fit(24, 24)]
        let output = try ImagePipeline().run(
            .data(source), operations, to: .data(SaveOptions(format: .webp, lossless: true)))
        #expect(output.format == .webp && output.report.frames == 4)
        let written = try Self.frames(output.bytes)
        #expect(written.frames.map(\.delay) == [80, 160, 40, 120])
        for (index, frame) in written.frames.enumerated() {
            let expected = try Self.alone(frames[index].0, operations)
            #expect(frame.picture.width == 18 && frame.picture.height == 24)
            #expect(Self.visibleDifference(frame.picture, expected) <= 1, "frame \(index)")
        }
        let still = try ImagePipeline().run(.data(source), operations, to: .data(SaveOptions(format: .png)))
        #expect(still.report.frames == 1 && still.format == .png)
        #expect(still.report.warnings.contains(.framesDropped(frames: 4, format: .png)), "\(still.report.warnings)")
    }

    @Test(
        "a GIF frame's colour table is as small as its colours allow: 100 two-colour frames of 4×4 take under 4 KB, and read back exactly"
    )
    func smallTables() throws {
        let encoder = try GIFAnimationEncoder(width: 4, height: 4, playCount: 0)
        var frame = try PixelBuffer(width: 4, height: 4, format: .rgba8)
        for k in 0..<100 {
            for y in 0..<4 {
                for x in 0..<4 {
                    frame.setPixel(x: x, y: y, (x + y + k) % 2 == 0 ? [200, 30, 40, 255] : [0, 0, 0, 0])
                }
            }
            try encoder.add(frame, delayMilliseconds: 20)
        }
        let bytes = try encoder.finish()
        #expect(bytes.count < 4096, "\(bytes.count) bytes")
        let (frames, _) = try Self.frames(bytes)
        #expect(frames.count == 100)
        for (k, read) in frames.enumerated() {
            #expect(read.picture.pixel(x: 0, y: 0) == (k % 2 == 0 ? [200, 30, 40, 255] : [0, 0, 0, 0]))
        }
    }

    @Test("play counts round-trip through both encoders: once, three times, for ever")
    func playCounts() throws {
        for playCount in [1, 3, 0] {
            for format in [ImageFormat.gif, .webp] {
                let encoder = try makeAnimationEncoder(
                    format: format, width: 4, height: 4, playCount: playCount, options: EncodeOptions())
                var frame = try PixelBuffer(width: 4, height: 4, format: .rgb8)
                try encoder.add(frame, delayMilliseconds: 100)
                frame.setPixel(x: 1, y: 2, [200, 100, 50])
                try encoder.add(frame.addingAlpha(), delayMilliseconds: 100)
                let info = try Self.frames(try encoder.finish()).info
                // A GIF that plays once has no loop extension (nil); WebP writes its loop count, 1.
                #expect(
                    info.playCount == (playCount == 1 && format == .gif ? nil : playCount), "\(format) \(playCount)")
                #expect(info.frameCount == 2)
            }
        }
    }
}
