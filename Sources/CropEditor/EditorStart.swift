import CropKit

/// Where every new editing session starts instead of the untouched picture: a crop CropKit proposed (an attention or
/// entropy crop, an automatic straighten) or a saved recipe, with a line for the person saying what it is.
///
/// The page draws it like any state: the crop box shows the proposal and the person moves it from there. Cancel,
/// undo history and reloads behave as for an untouched start; Done renders the proposal if nothing is changed.
public struct EditorStart: Sendable {
    /// The crop sessions start from.
    public var recipe: Recipe
    /// What the start is, for the person ("Proposed: the 1:1 crop with the most attention (72% of it)"), sent with
    /// the first state of each new session.
    public var notice: String?

    /// A start at `recipe`, announced by `notice`.
    public init(recipe: Recipe, notice: String? = nil) {
        self.recipe = recipe
        self.notice = notice
    }

    /// The start CropKit proposes for `source`: `operations` (geometric steps such as
    /// `ImageOperation.aspectCrop(_:gravity:)` and `ImageOperation.autoStraighten(minimumConfidence:)`) folded into
    /// a crop state by `pipeline`, announced with what was measured.
    ///
    /// - Throws: `CropKitError` for an unreadable source or a step that cannot apply.
    public static func proposed(
        for source: ImageSource, _ operations: [ImageOperation], pipeline: ImagePipeline = ImagePipeline()
    ) throws(CropKitError) -> EditorStart {
        let measured = try pipeline.measuredCropState(source, operations)
        var lines: [String] = []
        for operation in operations {
            switch operation {
            case .aspectCrop(let ratio, _):
                guard let proposal = measured.proposal else {
                    lines.append("the largest \(ratio) crop")
                    continue
                }
                let share = Int((proposal.score * 100).rounded())
                if let faces = proposal.faces, faces.placedBy == .face {
                    lines.append(
                        "the \(ratio) crop keeping \(faces.kept) of the \(faces.faces.count) "
                            + (faces.faces.count == 1 ? "face" : "faces") + " whole")
                } else if proposal.faces != nil {
                    lines.append("no face found: the \(ratio) crop with the most attention (\(share)% of it)")
                } else {
                    lines.append("the \(ratio) crop with the most \(proposal.measure.rawValue) (\(share)% of it)")
                }
            case .autoStraighten(let minimum):
                guard let estimate = measured.straighten else { continue }
                lines.append(
                    estimate.isConfident(minimum: minimum)
                        ? "levelled by \(estimate.levelledText)" : "not levelled (\(estimate.unsureText))")
            default:
                continue
            }
        }
        return EditorStart(
            recipe: measured.state.recipe, notice: lines.isEmpty ? nil : "Proposed: " + lines.joined(separator: "; "))
    }
}
