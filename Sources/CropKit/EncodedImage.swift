import CropCodecs
import CropGeometry

/// The output of a run to ``ImageSink/data(_:)``: an encoded file in memory.
public struct EncodedImage: Sendable {
    /// The file's bytes.
    public var bytes: [UInt8]
    /// Their format.
    public var format: ImageFormat
    /// What the run did.
    public var report: RenderReport

    /// The pixel size.
    public var size: PixelSize { report.size }
}
