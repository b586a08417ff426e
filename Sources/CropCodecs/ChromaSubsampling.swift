import CropGeometry
import CropPixels

/// JPEG chroma subsampling: how many luma samples share one pair of chroma samples.
public enum ChromaSubsampling: String, CaseIterable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// 4:4:4, no subsampling.
    case s444 = "4:4:4"
    /// 4:2:2, half horizontal chroma resolution.
    case s422 = "4:2:2"
    /// 4:2:0, half horizontal and vertical chroma resolution (libjpeg's default).
    case s420 = "4:2:0"

    public var description: String { rawValue }

    /// What `nil` (automatic) means for a given quality: 4:4:4 from quality 90 up, 4:2:0 below (as libvips does).
    public static func automatic(quality: Int) -> ChromaSubsampling { quality >= 90 ? .s444 : .s420 }
}
