import Testing

@testable import CropCodecs

/// What the header of an animation says, against Pillow's and webpmux's reading of the same files.
@Suite struct AnimationInfoTests {
    @Test(
        "frame count, play count and duration: GIF (NETSCAPE loop count n plays n + 1 times; the first of two counts, as Pillow reads it) and WebP (ANIM loop count; webpmux -info: loop 0, three frames of 100 ms)",
        arguments: [
            ("gif/dispose_prev.gif", 5, 0, 4.0), ("gif/duplicate_number_of_loops.gif", 2, 3, 0.0),
            ("gif/dispose_bgnd_transparency.gif", 10, 0, 4.4), ("webp/animated.webp", 3, 0, 0.3),
        ])
    func header(_ path: String, _ frames: Int, _ plays: Int, _ seconds: Double) throws {
        let info = try ImageInfo.read(try Fixtures.bytes(path))
        #expect(info.frameCount == frames && info.playCount == plays)
        #expect(abs((info.duration ?? -1) - seconds) < 0.0001)
    }

    @Test("a still picture has no frame count, play count or duration")
    func still() throws {
        let info = try ImageInfo.read(try Fixtures.bytes("gif/plain.gif"))
        #expect(info.frameCount == nil && info.playCount == nil && info.duration == nil)
    }
}
