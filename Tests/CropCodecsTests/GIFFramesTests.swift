import CropPixels
import CropTestSupport
import Testing

@testable import CropCodecs

/// Every frame of an animated GIF, composited as a browser shows it, against Pillow 13's `ImageSequence` (each frame
/// converted to RGBA, stacked top to bottom in `NAME-pillow-frames.png`).
@Suite struct GIFFramesTests {
    static func frames(_ name: String) throws -> (frames: [(PixelBuffer, Int)], info: ImageInfo) {
        let animation = try GIFFrames(data: try Fixtures.bytes("gif/" + name + ".gif"))
        var frames: [(PixelBuffer, Int)] = []
        while let frame = try animation.next() { frames.append((frame.picture, frame.delayMilliseconds)) }
        return (frames, animation.info)
    }

    @Test(
        "every frame and delay equals Pillow's: disposal none, background and previous, transparent colours that change from frame to frame, frames smaller than the canvas; where a pixel is transparent only its alpha is compared. Disposal to background clears to transparent, as browsers do, where Pillow paints the background colour (dispose_bgnd: those pixels are counted apart)",
        arguments: [
            ("dispose_none", [1000, 1000, 1000, 1000, 1000]), ("dispose_bgnd", [1000, 1000, 1000, 1000, 1000]),
            ("dispose_prev", [0, 1000, 1000, 1000, 1000]), ("transparent_dispose", [100, 500, 500]),
            ("dispose_bgnd_transparency", [2000, 200, 200, 500, 100, 500, 100, 500, 100, 200]),
            ("different_transparency", [1000, 1000]), ("animated-5", [0, 0, 0, 0, 0]),
        ])
    func againstPillow(_ name: String, _ delays: [Int]) throws {
        let (frames, info) = try Self.frames(name)
        let count = delays.count
        let sheet = try PNGDecoder.decode(try Fixtures.bytes("gif/" + name + "-pillow-frames.png")).pixels
        #expect(frames.count == count && info.frameCount == count)
        #expect(frames.map(\.1) == delays)
        var differing = 0, cleared = 0
        for (index, (picture, _)) in frames.enumerated() {
            #expect(picture.format == .rgba8 && picture.width == sheet.width && sheet.height == picture.height * count)
            for y in 0..<picture.height {
                for x in 0..<picture.width {
                    let ours = picture.pixel(x: x, y: y), theirs = sheet.pixel(x: x, y: index * picture.height + y)
                    if name == "dispose_bgnd", ours[3] == 0, theirs == [0, 0, 0, 255] {
                        cleared += 1
                    } else if ours[3] != theirs[3] || (theirs[3] != 0 && ours != theirs) {
                        differing += 1
                    }
                }
            }
        }
        #expect(differing == 0, "\(differing) pixels differ from Pillow's frames")
        #expect(
            (cleared > 0) == (name == "dispose_bgnd"), "\(cleared) pixels cleared where Pillow paints the background")
    }

    @Test("the first frame is the still decoder's picture; the header's loop count and duration are Pillow's")
    func firstFrameAndTiming() throws {
        let (frames, info) = try Self.frames("dispose_prev")
        let still = try GIFDecoder(data: try Fixtures.bytes("gif/dispose_prev.gif")).decodeAll()
        let first = frames[0].0
        for y in 0..<first.height {
            for x in 0..<first.width {
                #expect(
                    Array(first.pixel(x: x, y: y).prefix(still.format.channelCount == 4 ? 4 : 3))
                        == still.pixel(x: x, y: y))
            }
        }
        #expect(info.playCount == 0 && info.duration == 4.0)
        #expect(info.summary.hasSuffix("5 frames, looping forever, 4 s"), "\(info.summary)")
        let json = ImageInfo.json([("dispose_prev.gif", info)])
        #expect(json.contains("\"frames\": 5, \"playCount\": 0, \"durationSeconds\": 4"), "\(json)")
        #expect(frames.map(\.1).reduce(0, +) == 4000)
    }

    @Test(
        "a file broken after two frames gives those two and then an error; every prefix of an animation ends in frames or an error, never a trap"
    )
    func broken() throws {
        let animation = try GIFFrames(data: try Fixtures.bytes("gif/animated-broken-after-2.gif"))
        var decoded = 0
        do {
            while try animation.next() != nil { decoded += 1 }
            Issue.record("no error after \(decoded) frames")
        } catch {
            #expect(decoded == 2)
        }
        let bytes = try Fixtures.bytes("gif/dispose_prev.gif")
        for length in 0..<bytes.count {
            guard let prefix = try? GIFFrames(data: Array(bytes.prefix(length))) else { continue }
            while (try? prefix.next()) != nil {}
        }
    }
}
