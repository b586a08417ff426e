import CropGeometry
import CropPixels

/// A face found in a picture.
public struct Face: Hashable, Sendable, Codable {
    /// The face's box in the picture's pixels (x, y from its top-left corner): roughly brow to chin and ear to ear,
    /// as the detector was trained to mark them.
    public var rect: Rect
    /// How clearly the detector saw a face: its score above its threshold. 0 is the threshold itself; a frontal face
    /// in good light scores 1–3, a face in profile or half in shadow 0–0.5.
    public var confidence: Double

    /// A face at `rect` with `confidence`.
    public init(rect: Rect, confidence: Double) {
        self.rect = rect
        self.confidence = confidence
    }
}

/// Finds faces in a picture. ``HOGFaceDetector`` is CropKit's; a caller with a better model can put its own behind
/// this protocol and hand it to `ImagePipeline`.
public protocol FaceDetecting: Sendable {
    /// The faces in `image`, in its pixels, strongest first.
    ///
    /// - Throws: `PixelError` when the picture cannot be prepared for the detector.
    func faces(in image: PixelBuffer) throws(PixelError) -> [Face]

    /// The size of the copy of a `size` picture this detector would look at: what a caller decoding a large
    /// picture (with shrink-on-load) should hand it, no larger.
    func inputSize(for size: PixelSize) -> PixelSize
}

/// dlib's HOG frontal face detector (five filters: frontal, left and right profiles, frontal turned either way),
/// run on a copy of the picture scaled so that the smallest face asked for is as large as the detector needs.
///
/// The detector finds faces from about 80 pixels up, so the copy's short side is `80 / smallestFace` pixels
/// (1,333 for the default 6%), at most ``maximumPixels`` in all: smaller pictures are enlarged (dlib's own detector
/// was trained on pictures upsampled twice), larger ones reduced. Time and memory therefore depend on neither the
/// picture's size nor its content: for a 3:2 picture (a 2,000 × 1,333 copy), about 0.12 s on two cores and 0.21 s on
/// one (dlib itself: 0.18 s on one core built as Debian builds it, 0.13 s built for AVX2; `Benchmarks/faces-scan.sh`),
/// holding at most about 13 bytes per pixel of the copy besides it (the pyramid's smaller pictures until their HOG
/// features are made, and every level's features).
///
/// The model ships in the source (dlib 19.24's, Boost Software License; see THIRD_PARTY_NOTICES.md): building or
/// running needs no dlib and no model file, and making a detector costs nothing.
public struct HOGFaceDetector: FaceDetecting, Hashable {
    /// The smallest face to find, as a fraction of the picture's short side.
    public var smallestFace: Double
    /// The largest copy the detector scans, in pixels (a panorama's copy is smaller than its short side asks).
    public var maximumPixels: Int
    /// Added to dlib's threshold: below 0 finds fainter faces and more false ones. The default, −0.1, was chosen
    /// on `Benchmarks/faces.py`'s photos (eight sets: as labelled, enlarged 4×, on a 24 MP canvas, stored turned
    /// losslessly and re-encoded): from −0.15 to −0.05 every labelled face of the four PASCAL photos is found in
    /// every set with no false face, nor any in eight photos without people; at −0.2 a false face (−0.20) appears,
    /// at 0 one face of the re-encoded set (scored between −0.05 and 0) is lost.
    public var threshold: Double
    /// Threads to scan with (`0`: every core).
    public var maxThreads: Int

    /// The face size, in pixels of the scanned copy, that the detector finds reliably (its window is 80 pixels;
    /// its boxes, brow to chin, about 73).
    public static let detectorFaceSize = 80.0

    /// A detector finding faces from `smallestFace` of the short side.
    public init(
        smallestFace: Double = 0.06, maximumPixels: Int = 3_000_000, threshold: Double = -0.1, maxThreads: Int = 0
    ) {
        self.smallestFace = smallestFace
        self.maximumPixels = maximumPixels
        self.threshold = threshold
        self.maxThreads = maxThreads
    }

    /// The size of the copy the detector scans for a picture of `size`: short side `80 / smallestFace`, at most
    /// ``maximumPixels``, the picture's aspect kept.
    public func inputSize(for size: PixelSize) -> PixelSize {
        let short = Double(Swift.min(size.width, size.height))
        var scale = (Self.detectorFaceSize / Swift.max(smallestFace, 0.001)) / short
        let area = Double(size.width) * Double(size.height) * scale * scale
        if area > Double(maximumPixels) { scale *= (Double(maximumPixels) / area).squareRoot() }
        let width = Swift.max(1, Int((Double(size.width) * scale).rounded()))
        let height = Swift.max(1, Int((Double(size.height) * scale).rounded()))
        return PixelSize(validWidth: width, height: height)
    }

    public func faces(in image: PixelBuffer) throws(PixelError) -> [Face] {
        let size = inputSize(for: PixelSize(validWidth: image.width, height: image.height))
        let copy =
            size.width == image.width && size.height == image.height
            ? image
            : try image.resized(width: size.width, height: size.height, options: ResampleOptions(filter: .lanczos3))
        let sx = Double(image.width) / Double(size.width), sy = Double(image.height) / Double(size.height)
        return HOGFaceModel.frontal.detect(RGBImage(copy), threshold: threshold, threads: Parallel.threads(maxThreads))
            .map { d in
                // dlib's inclusive box is `left...right`: its width is right − left + 1 pixels.
                Face(
                    rect: Rect(
                        x: Double(d.left) * sx, y: Double(d.top) * sy, width: Double(d.right - d.left + 1) * sx,
                        height: Double(d.bottom - d.top + 1) * sy),
                    confidence: d.confidence)
            }
    }
}
