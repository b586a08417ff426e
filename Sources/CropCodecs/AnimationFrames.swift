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
