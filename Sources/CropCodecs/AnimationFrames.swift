import CropPixels

/// The frames of an animation, one at a time, each the whole canvas composited as a browser shows it (8-bit RGBA):
/// ``GIFFrames`` and ``WebPFrames``.
package protocol AnimationFrames: AnyObject {
    /// The canvas.
    var width: Int { get }
    var height: Int { get }
    /// What the file's header says: frame count, play count, duration.
    var info: ImageInfo { get }
    /// The next frame and its delay in milliseconds, or `nil` after the last.
    func next() throws(CodecError) -> (picture: PixelBuffer, delayMilliseconds: Int)?
}

extension AnimationFrames {
    /// Runs a shim's next-frame call into `buffer` (8-bit RGBA rows): the call gets the first row, the row stride,
    /// the delay and the decoded flag to fill, and the message buffer. Gives the delay, or `nil` after the last frame.
    static func readFrame(
        into buffer: inout PixelBuffer, format: ImageFormat,
        _ call: (
            UnsafeMutablePointer<UInt8>, Int, UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>,
            UnsafeMutablePointer<CChar>
        ) -> Int32
    ) throws(CodecError) -> Int? {
        var delay: Int32 = 0, decoded: Int32 = 0
        try buffer.withUnsafeMutableRows { rows throws(CodecError) in
            try ShimStatus.call(format: format) { message in
                call(rows.row(0).assumingMemoryBound(to: UInt8.self), rows.bytesPerRow, &delay, &decoded, message)
            }
        }
        return decoded != 0 ? Int(delay) : nil
    }
}
