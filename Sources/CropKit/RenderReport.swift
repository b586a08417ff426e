import CropAnalysis
import CropEngine
import CropGeometry
import CropPixels

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a pipeline run did, beside its output.
public struct RenderReport: Sendable {
    /// The output's pixel size.
    public var size: PixelSize
    /// The output's pixel format before encoding.
    public var pixelFormat: PixelFormat
    /// The shrink-on-load factor used: 1 (none), 2, 4 or 8.
    public var decodeScale: Int
    /// The crop the geometric steps folded into, for this source: save its `CropState.recipe` to replay the crop on
    /// another copy of the picture, or open it in an editor. An untouched state when the chain has no geometry.
    public var cropState: CropState
    /// Recoverable problems met on the way: codec warnings, a crop clipped to the picture.
    public var warnings: [PipelineWarning]
    /// What an ``ImageOperation/autoStraighten(minimumConfidence:)`` step measured (applied or not: see
    /// ``cropState``'s angle and ``warnings``); `nil` when the chain has none.
    public var autoStraighten: StraightenEstimate? = nil
    /// The frames written: the animation's frame count when an animated source was written as an animation, else 1.
    public var frames: Int = 1
    /// What a fill, thumbnail or aspect crop placed by `Gravity.face` found, and whether faces or
    /// (with none found) attention placed it; `nil` without such a step.
    public var faces: FacePlacement? = nil
    /// For a JPEG transcoded to JPEG XL without a change (``ImagePipeline/transcode(_:scale:earlyStop:to:)``): the
    /// JPEG's bytes and the JPEG XL's, which keeps the JPEG's coefficients and gives the file back byte for byte;
    /// `nil` otherwise.
    public var jpegRecompression: (jpegBytes: Int, jxlBytes: Int)? = nil
    /// For a run that rendered a smaller copy (a placeholder's), the size of the output it stands for; `nil` otherwise.
    package var unreducedSize: PixelSize? = nil
}

extension RenderReport {
    /// Whether an ``ImageOperation/autoStraighten(minimumConfidence:)`` step was applied (`nil` without one).
    public var autoStraightenApplied: Bool? {
        guard autoStraighten != nil else { return nil }
        return !warnings.contains { if case .autoStraightenNotApplied = $0 { true } else { false } }
    }

    /// `found=3; kept=2; placed-by=face`: what a step placed by `Gravity.face` found and kept, and
    /// whether faces or (with none found) attention placed it, as the service's `CropKit-Faces` header states it;
    /// `nil` without such a step.
    public var facesSummary: String? {
        guard let faces else { return nil }
        return
            "found=\(faces.faces.count); kept=\(faces.kept); placed-by=\(faces.placedBy == .face ? "face" : "attention")"
    }

    /// `angle=3.24; confidence=0.71; lines=26; measure=lines; applied=1`: what an automatic straighten measured (angle
    /// in degrees counter-clockwise, and from what: `lines` or `projection`, see `StraightenEstimate.Measure`) and
    /// whether it was applied, as the services' `CropKit-Straighten` header states it; `nil` without one.
    public var autoStraightenSummary: String? {
        guard let estimate = autoStraighten, let applied = autoStraightenApplied else { return nil }
        func places(_ x: Double) -> String { x.decimal(places: 2) }
        return "angle=\(places(estimate.angle)); confidence=\(places(estimate.confidence)); lines=\(estimate.lines); "
            + "measure=\(estimate.measure.rawValue); applied=\(applied ? 1 : 0)"
    }
}
