import CropCodecs
import CropGeometry

/// The output of a run to ``ImageSink/file(_:options:)``: a file written atomically.
public struct WrittenFile: Sendable {
    /// The file written.
    public var path: String
    /// Its format.
    public var format: ImageFormat
    /// Its size in bytes.
    public var byteCount: Int
    /// What the run did.
    public var report: RenderReport

    /// The pixel size.
    public var size: PixelSize { report.size }
}
