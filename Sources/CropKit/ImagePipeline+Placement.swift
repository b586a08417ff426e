import CropAnalysis
import CropGeometry

extension ImagePipeline {
    /// Resolves the gravities that need the picture into focal points the plan can place by geometry alone: a smart
    /// ``ImageOperation/aspectCrop(_:gravity:)`` (measured on a small copy), and a `Gravity.pixelFocus` of a
    /// fill or a thumbnail (carried from the displayed picture through the crop, turns and straighten). The proposal
    /// that placed a smart aspect crop comes back for the caller to report.
    func resolvePlacement(
        _ source: ImageSource, _ opened: OpenedSource, _ operations: [ImageOperation]
    ) throws(CropKitError) -> (operations: [ImageOperation], proposal: CropProposal?) {
        var resolved = operations
        var proposal: CropProposal?
        if let index = resolved.firstIndex(where: { $0.group == .geometry }),
            case .aspectCrop(let ratio, let gravity) = resolved[index], gravity.isSmart
        {
            let measure: CropProposal.Measure =
                gravity == .face ? .face : .init(InterestMap.measure(for: gravity) ?? .attention)
            let shown = opened.displayedSize
            let full = Rect(x: 0, y: 0, width: Double(shown.width), height: Double(shown.height))
            let proposed = try proposeCrop(source, opened, aspect: ratio, measure: measure)
            resolved[index] = .aspectCrop(ratio, gravity: .focus(on: proposed.rect, in: full))
            proposal = proposed
        }
        if case .pixelFocus(let point)? = resolved.lazy.compactMap(\.fillGravity).first {
            resolved = try resolvePixelFocus(point, opened, resolved)
        }
        return (resolved, proposal)
    }

    /// The fill's `Gravity.pixelFocus` (a point of the displayed picture) as the `Gravity.focus` that
    /// keeps the same point of the picture the fill sees: the point goes to the stored picture through the EXIF
    /// orientation, then to the crop state's output through its render plan. A point outside the crop is clamped to
    /// its edge, so the window goes as near it as the crop allows.
    private func resolvePixelFocus(
        _ point: Point, _ opened: OpenedSource, _ operations: [ImageOperation]
    ) throws(CropKitError) -> [ImageOperation] {
        let centred = operations.map { $0.replacingFillGravity(with: .center) }
        let plan = try PipelinePlan(
            centred, storedSize: opened.storedSize, orientation: opened.info.orientation, maxThreads: maxThreads)
        let region = plan.state.renderPlan()
        let stored = opened.info.orientation.inverseTransform(storedSize: opened.storedSize.size).apply(to: point)
        guard let toOutput = region.transform.inverted() else { return centred }
        let output = toOutput.apply(to: stored)
        let natural = region.outputSize
        let focus = Point(
            x: Swift.min(Swift.max(output.x / Double(natural.width), 0), 1),
            y: Swift.min(Swift.max(output.y / Double(natural.height), 0), 1))
        return operations.map { $0.replacingFillGravity(with: .focus(focus)) }
    }
}
