import CropAnalysis
import CropCodecs
import CropGeometry
import CropPixels

/// What a fill, thumbnail or aspect crop placed by `Gravity.face` found and did
/// (``RenderReport/faces``, ``CropProposal/faces``).
public struct FacePlacement: Hashable, Sendable {
    /// The faces found in the part of the picture the step sees, in the displayed picture's pixels (EXIF
    /// orientation applied, before any crop), strongest first.
    public var faces: [Face]
    /// How many of them the window keeps whole (head included).
    public var kept: Int
    /// What placed the window: `Gravity.face`, or `Gravity.attention` when no face
    /// was found.
    public var placedBy: Gravity
}

/// The picture a face detector looked at, and what it found.
struct FaceScan {
    /// The faces, in the measured region's pixels (the crop state's output, before the fill).
    var faces: [Face]
    /// The same faces in the displayed picture's pixels.
    var displayed: [Face]
    /// The source with the picture decoded whole, when the scan decoded it at a scale the render can reuse.
    var source: OpenedSource
}

extension ImagePipeline {
    /// The faces in `source` as it is shown (EXIF orientation and HEIF transforms applied), in its displayed
    /// pixels, strongest first.
    ///
    /// ``faceDetector`` sees a copy sized by its `FaceDetecting.inputSize(for:)` (for `HOGFaceDetector`,
    /// short side 1,333 pixels, so faces from 6% of the short side are found), decoded with shrink-on-load to at
    /// least half that size and never more than 24 million pixels at once (larger pictures
    /// are streamed), so time and memory are bounded whatever the file.
    ///
    /// - Throws: ``CropKitError`` for an unreadable source.
    public func faces(in source: ImageSource) throws(CropKitError) -> [Face] {
        try scanFaces(source, try open(source), []).displayed
    }

    /// Finds the faces in the region the geometric steps of `operations` leave (orientation, crop, straighten), on
    /// a copy of it at the size ``faceDetector`` asks for.
    func scanFaces(
        _ image: ImageSource, _ source: OpenedSource, _ operations: [ImageOperation],
        predecodeLimit: Int = PredecodedPicture.pixelBudget
    ) throws(CropKitError) -> FaceScan {
        var detector = faceDetector
        if var hog = detector as? HOGFaceDetector, hog.maxThreads == 0 {
            hog.maxThreads = maxThreads  // the pipeline's thread budget (the service runs each request on one)
            detector = hog
        }
        let geometric = operations.filter { $0.group == .geometry }
        let plan = try PipelinePlan(
            geometric, storedSize: source.storedSize, orientation: source.info.orientation, maxThreads: maxThreads)
        let region = plan.state.renderPlan()
        let natural = region.outputSize
        let wanted = detector.inputSize(for: natural)
        // Never enlarge here: the detector enlarges a small picture itself.
        let f = Swift.min(
            1, Double(wanted.width) / Double(natural.width), Double(wanted.height) / Double(natural.height))
        let width = Swift.max(1, Int((Double(natural.width) * f).rounded()))
        let height = Swift.max(1, Int((Double(natural.height) * f).rounded()))
        // Decode at the smallest scale that still gives the detector at least half the pixels it wants on a side (it
        // enlarges up to twice, as dlib's model was trained on pictures enlarged twice). Benchmarks/faces.py's 24 MP
        // photos with faces of 6% of the short side: all 18 faces found from a 1/4-scale decode, 17 from 1/8. The
        // wanted size, not the copy's: a picture smaller than the detector's input is decoded whole, as the
        // detector enlarges it anyway (a 500 × 375 JPEG decoded at 1/2 lost a third of its faces' confidence).
        let linear = (region.transform.a * region.transform.a + region.transform.b * region.transform.b).squareRoot()
        let reduction =
            linear
            / Swift.min(Double(wanted.width) / Double(natural.width), Double(wanted.height) / Double(natural.height))
        let scale =
            shrinkOnLoad && source.info.shrinksOnLoad
            ? ([8, 4, 2].first { $0 <= source.info.largestShrinkOnLoad && reduction / Double($0) >= 0.5 } ?? 1) : 1
        let (sample, resolved) = try regionCopy(
            image, source, geometric, transform: region.transform, natural: natural, scale: scale, width: width,
            height: height, bilinear: true, predecodeLimit: predecodeLimit)
        let found = try mappingErrors { try detector.faces(in: sample) }
        let sx = Double(natural.width) / Double(sample.width), sy = Double(natural.height) / Double(sample.height)
        let faces = found.map { face in
            Face(
                rect: Rect(
                    x: face.rect.minX * sx, y: face.rect.minY * sy, width: face.rect.width * sx,
                    height: face.rect.height * sy),
                confidence: face.confidence)
        }
        // Region pixels → stored pixels → displayed pixels (the bounding box, should the region be turned).
        let toDisplayed = region.transform.concatenating(
            source.info.orientation.transform(storedSize: source.storedSize.size))
        let displayed = faces.map { Face(rect: toDisplayed.apply(to: $0.rect), confidence: $0.confidence) }
        return FaceScan(faces: faces, displayed: displayed, source: resolved)
    }
}
