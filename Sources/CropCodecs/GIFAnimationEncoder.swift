import CGIF
import CropPixels

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An animated GIF written with giflib: each frame quantised to its own 256-colour table by giflib's median-cut
/// quantiser, alpha below 128 transparent, delays rounded to hundredths of a second (GIF's unit).
///
/// Why giflib's quantiser: it is in the giflib CropKit already reads with (MIT licence, no new dependency).
/// libimagequant dithers better but is GPLv3 (or commercial), which an Apache-2.0 toolkit cannot ship; cgif writes
/// GIF well but does not quantise, so it would still need one. Frames are not dithered.
package final class GIFAnimationEncoder: AnimationEncoder {
    private let handle: OpaquePointer
    private let width: Int, height: Int

    /// - Throws: ``CodecError/invalidArgument(name:reason:)`` past 65535 pixels a side,
    ///   ``CodecError/libraryUnavailable(format:reason:)`` without giflib's writing half.
    package init(width: Int, height: Int, playCount: Int?) throws(CodecError) {
        try EncoderChecks.size(width: width, height: height, maxDimension: 65_535, format: .gif)
        // GIF counts loops after the first play: n plays are n − 1 loops; no extension plays once.
        let loops: Int32 =
            switch playCount {
            case nil, 1: -1
            case 0: 0
            case let n?: Int32(clamping: Swift.min(n - 1, 65_535))
            }
        var opened: OpaquePointer?
        try ShimStatus.call(format: .gif, role: "encoder") { message in
            ck_gif_writer_open(Int32(width), Int32(height), loops, &opened, message)
        }
        guard let opened else { throw .resourceLimit(format: .gif, message: "giflib started no file") }
        handle = opened
        self.width = width
        self.height = height
    }

    deinit {
        ck_gif_writer_close(handle)
    }

    package func add(_ frame: PixelBuffer, delayMilliseconds: Int) throws(CodecError) {
        let handle = handle
        let hundredths = Int32(clamping: (delayMilliseconds + 5) / 10)
        try addFrame(frame, width: width, height: height, format: .gif) {
            ck_gif_writer_add(handle, $0, $1, hundredths, $2)
        }
    }

    package func finish() throws(CodecError) -> [UInt8] {
        let handle = handle
        return try finishedFile(format: .gif, { ck_gif_writer_finish(handle, $0, $1, $2) }, release: { free($0) })
    }
}
