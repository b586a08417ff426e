import CropAnalysis
import CropGeometry

extension ImagePipeline {
    /// How far the picture's horizon or verticals are tilted: `StraightenDetector` run on a 1024-pixel copy,
    /// decoded with shrink-on-load and shown as the EXIF orientation says.
    ///
    /// The estimate's angle is the straighten that levels the picture as shown (`CropState.straightenAngle`,
    /// counter-clockwise); apply it with ``ImageOperation/straighten(_:)`` when
    /// `StraightenEstimate.isConfident(minimum:)`, or let ``ImageOperation/autoStraighten(minimumConfidence:)`` do so.
    ///
    /// - Throws: ``CropKitError`` for an unreadable source.
    public func estimateStraighten(_ source: ImageSource) throws(CropKitError) -> StraightenEstimate {
        let side = StraightenDetector.analysisSide
        let copy = try run(source, [.fit(within: PixelSize(validWidth: side, height: side), allowUpscale: true)])
        return try mappingErrors { try StraightenDetector.estimate(copy.pixels) }
    }

    /// Replaces an ``ImageOperation/autoStraighten(minimumConfidence:)`` step with the straighten it measures, or
    /// removes it (with a warning) when the measure is not confident; the estimate comes back for the report.
    func resolveAutoStraighten(
        _ source: ImageSource, _ opened: OpenedSource, _ operations: [ImageOperation]
    ) throws(CropKitError) -> (operations: [ImageOperation], estimate: StraightenEstimate?, warning: PipelineWarning?) {
        guard let index = operations.firstIndex(where: { if case .autoStraighten = $0 { true } else { false } }),
            case .autoStraighten(let minimum) = operations[index]
        else { return (operations, nil, nil) }
        let estimate = try estimateStraighten(source)
        var resolved = operations
        guard estimate.isConfident(minimum: minimum) else {
            resolved.remove(at: index)
            return (resolved, estimate, .autoStraightenNotApplied(estimate, minimumConfidence: minimum))
        }
        // The estimate levels the picture as shown; a mirror before this step mirrors the angle too.
        let before = try PipelinePlan(
            Array(operations[..<index]), storedSize: opened.storedSize, orientation: opened.info.orientation,
            maxThreads: maxThreads)
        resolved[index] = .straighten(before.state.isFlipped ? -estimate.angle : estimate.angle)
        return (resolved, estimate, nil)
    }
}
