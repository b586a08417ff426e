import ArgumentParser
import CropCodecs
import CropKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `cropkit analyze IMAGE [--aspect W:H] [--json]`: the straighten, the faces and the crops CropKit would choose,
/// with their confidence, scores and recipes.
package struct AnalyzeCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract:
            "Show the straighten, the faces and the crops CropKit would choose, with confidence, scores and recipes.",
        discussion: """
            Measures the picture on small shrink-on-load copies. First the straighten: the tilt of its horizon or \
            verticals in degrees (counter-clockwise to level it), the confidence of that measure (0…1), how many \
            straight lines agree, and whether `--straighten auto` would apply it (confidence 0.5 or more). Then the \
            faces found (boxes in displayed pixels, EXIF orientation applied, with the detector's confidence: 0 at \
            its threshold, 1–3 for a clear frontal face). Then, for each measure, the largest rectangle of the \
            aspect (in displayed pixels) that keeps the most of it, and the share it keeps. attention looks for \
            edges, saturated colour and skin; entropy for local detail; face keeps the faces whole with room above \
            the head (the share: of the faces found), and falls back to attention when there is none. With --json, the straighten and each proposal carry a recipe (the straighten's: the \
            largest crop of the picture's aspect, levelled), which `cropkit apply` renders and the editor opens, so a \
            person can see and adjust the machine's choice. Nothing is written.

            Examples:
              cropkit analyze photo.jpg
              cropkit analyze photo.jpg --aspect 16:9 --json > proposals.json
            """)

    @Argument(help: "The image.")
    package var input: String

    @Option(help: "The aspect of the proposed crops, W:H.")
    package var aspect: String = "1:1"

    @Option(help: "The smallest face to find, as a fraction of the picture's short side (smaller is slower).")
    package var smallestFace: Double = 0.06

    @Flag(help: "Print JSON (with each proposal's recipe).")
    package var json = false

    @Flag(help: "Treat codec warnings as errors.")
    package var strict = false

    package func validate() throws {
        guard case .ratio = try? AspectLock(string: aspect) else {
            throw ValidationError("--aspect must be W:H with whole numbers, such as 1:1 or 16:9; got '\(aspect)'.")
        }
        guard smallestFace >= 0.01, smallestFace <= 1 else {
            throw ValidationError("--smallest-face must be a fraction from 0.01 to 1; got \(smallestFace).")
        }
    }

    package func run() throws {
        guard case .ratio(let ratio) = try AspectLock(string: aspect) else { throw ExitCode.validationFailure }
        var pipeline = ImagePipeline(strict: strict)
        pipeline.faceDetector = HOGFaceDetector(smallestFace: smallestFace)
        let proposals: [CropProposal]
        let shown: PixelSize
        let straighten: StraightenEstimate
        let levelled: CropState
        do {
            shown = try ImageSource.file(input).info(strict: strict).displayedSize
            straighten = try pipeline.estimateStraighten(.file(input))
            levelled = try pipeline.cropState(.file(input), [.straighten(straighten.angle)])
            proposals = try CropProposal.Measure.allCases.map { (measure) throws(CropKitError) in
                try pipeline.proposeCrop(.file(input), aspect: ratio, measure: measure)
            }
        } catch {
            printError("cropkit analyze: \(input): \(error)")
            throw ExitCode.failure
        }
        if json {
            print(
                Self.json(
                    input: input, shown: shown, aspect: ratio, straighten: (straighten, levelled), proposals: proposals)
            )
        } else {
            print("\(input): \(Console.size(shown))")
            print(
                "  straighten: \(Console.degrees(straighten.angle)), confidence \(Console.fraction(straighten.confidence)) "
                    + "(\(straighten.evidence) agree); "
                    + (straighten.isConfident()
                        ? "--straighten auto applies it" : "not sure: --straighten auto leaves it"))
            let faces = Self.faces(proposals)
            print("  faces: " + (faces.isEmpty ? "none found" : "\(faces.count) found"))
            for face in faces {
                let r = face.rect
                print(
                    "    \(Int(r.width.rounded()))×\(Int(r.height.rounded())) at \(Int(r.minX.rounded())),"
                        + "\(Int(r.minY.rounded())), confidence \(Console.fraction(face.confidence))")
            }
            for proposal in proposals {
                let r = proposal.rect
                let name = Console.padded(proposal.measure.rawValue, to: 9)
                let share =
                    proposal.faces.map {
                        $0.placedBy == .face
                            ? "keeps \($0.kept) of \($0.faces.count) faces whole" : "no face: placed by attention"
                    } ?? "keeps \(Self.percent(proposal.score)) of it"
                print(
                    "  \(name) \(ratio): \(Int(r.width.rounded()))×\(Int(r.height.rounded())) at "
                        + "\(Int(r.minX.rounded())),\(Int(r.minY.rounded())), \(share)")
            }
        }
    }

    package static func percent(_ share: Double) -> String { "\(Int((share * 100).rounded()))%" }

    /// The faces the face proposal found (in displayed pixels).
    static func faces(_ proposals: [CropProposal]) -> [Face] {
        proposals.lazy.compactMap(\.faces).first?.faces ?? []
    }

    /// `{"file", "width", "height", "aspect", "straighten": {"angle", "confidence", "lines", "applied", "recipe"},
    /// "faces": [{"x", "y", "width", "height", "confidence"}], "proposals": [{"measure", "rect": [x, y, w, h],
    /// "score", "recipe"}]}`; the face proposal also says what placed it (`"placedBy": "face"` or `"attention"`).
    package static func json(
        input: String, shown: PixelSize, aspect: AspectRatio, straighten: (StraightenEstimate, CropState),
        proposals: [CropProposal]
    ) -> String {
        struct Straighten: Encodable {
            var angle: Double
            var confidence: Double
            var lines: Int
            var measure: String
            var applied: Bool
            var recipe: Recipe
        }
        struct Proposal: Encodable {
            var measure: String
            var rect: [Double]
            var score: Double
            var recipe: Recipe
            var placedBy: String?
        }
        struct FoundFace: Encodable {
            var x: Double, y: Double, width: Double, height: Double
            var confidence: Double
        }
        struct Report: Encodable {
            var file: String
            var width: Int, height: Int
            var aspect: String
            var straighten: Straighten
            var faces: [FoundFace]
            var proposals: [Proposal]
        }
        func places(_ x: Double) -> Double { (x * 1000).rounded() / 1000 }
        let (estimate, levelled) = straighten
        let report = Report(
            file: input, width: shown.width, height: shown.height, aspect: aspect.description,
            straighten: Straighten(
                angle: (estimate.angle * 1000).rounded() / 1000,
                confidence: (estimate.confidence * 1000).rounded() / 1000,
                lines: estimate.lines, measure: estimate.measure.rawValue, applied: estimate.isConfident(),
                recipe: levelled.recipe),
            faces: faces(proposals).map {
                FoundFace(
                    x: places($0.rect.minX), y: places($0.rect.minY), width: places($0.rect.width),
                    height: places($0.rect.height), confidence: places($0.confidence))
            },
            proposals: proposals.map {
                Proposal(
                    measure: $0.measure.rawValue, rect: [$0.rect.minX, $0.rect.minY, $0.rect.width, $0.rect.height],
                    score: places($0.score), recipe: $0.state.recipe,
                    placedBy: $0.faces.map { $0.placedBy == .face ? "face" : "attention" })
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: (try? encoder.encode(report)) ?? Data(), as: UTF8.self)
    }
}
