import CropGeometry
import CropPixels

/// The output of a run to ``ImageSink/image``: pixels and metadata, nothing encoded.
public struct RenderedImage: Sendable {
    /// The upright pixels and the metadata that goes with them (orientation 1).
    public var image: Image
    /// What the run did.
    public var report: RenderReport

    /// The pixels.
    public var pixels: PixelBuffer { image.pixels }
    /// The pixel size.
    public var size: PixelSize { report.size }
}
