import CropPixels
import CropTestSupport
import Testing

@testable import CropCodecs

/// Every frame of an animated WebP through libwebpdemux, against Pillow's frames and webpmux's durations, and against
/// the GIF each was made from with gif2webp (lossless: the two decoders must agree pixel for pixel).
@Suite struct WebPFramesTests {
    static func frames(_ path: String) throws -> [(PixelBuffer, Int)] {
        let animation = try WebPFrames(data: try Fixtures.bytes(path))
        var frames: [(PixelBuffer, Int)] = []
        while let frame = try animation.next() { frames.append((frame.picture, frame.delayMilliseconds)) }
        return frames
    }

    @Test("animated.webp (img2webp, lossy): three frames of 100 ms (webpmux -info), each equal to Pillow's")
    func againstPillow() throws {
        let frames = try Self.frames("webp/animated.webp")
        let sheet = try PNGDecoder.decode(try Fixtures.bytes("webp/animated-pillow-frames.png")).pixels
        #expect(frames.map(\.1) == [100, 100, 100])
        for (index, (picture, _)) in frames.enumerated() {
            #expect(picture.width == 64 && picture.height == 48 && picture.format == .rgba8)
            #expect(picture == (try sheet.cropped(x: 0, y: index * 48, width: 64, height: 48)), "frame \(index)")
        }
    }

    @Test(
        "gif2webp of dispose_prev.gif and dispose_bgnd_transparency.gif (lossless, with blending and disposal): every frame equals GIFFrames' frame of the GIF wherever the pixel is not transparent; transparency agrees",
        arguments: ["dispose_prev", "dispose_bgnd_transparency"])
    func againstTheGIF(_ name: String) throws {
        let webp = try Self.frames("webp/\(name)-gif2webp.webp")
        let gif = try GIFFrames(data: try Fixtures.bytes("gif/\(name).gif"))
        var index = 0, differing = 0
        while let frame = try gif.next() {
            let ours = webp[index].0
            for y in 0..<ours.height {
                for x in 0..<ours.width {
                    let a = ours.pixel(x: x, y: y), b = frame.picture.pixel(x: x, y: y)
                    if a[3] != b[3] || (a[3] != 0 && a != b) { differing += 1 }
                }
            }
            index += 1
        }
        #expect(index == webp.count && differing == 0, "\(differing) pixels differ over \(index) frames")
    }

    @Test(
        "a still WebP is no animation to libwebpdemux's reader: one frame, the still decoder's picture; every prefix of an animation ends in frames or an error"
    )
    func stillAndPrefixes() throws {
        let bytes = try Fixtures.bytes("webp/animated.webp")
        for length in 0..<bytes.count {
            guard let animation = try? WebPFrames(data: Array(bytes.prefix(length))) else { continue }
            while (try? animation.next()) != nil {}
        }
        let still = try Self.frames("webp/rgba-lossless.webp")
        let decoded = try WebPDecoder(data: try Fixtures.bytes("webp/rgba-lossless.webp")).decodeAll()
        #expect(still.count == 1 && still[0].0 == decoded)
    }
}
