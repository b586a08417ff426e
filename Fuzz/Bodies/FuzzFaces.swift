// libFuzzer target: the face detector (CropAnalysis' HOG features, the 5/6 pyramid, the separable filters and the
// non-maximum suppression, as HOGFaceModel.detect runs them) on an RGB picture of 64…191 × 64…191 pixels made from
// the input, then the face window placed on what it found. HOGFaceDetector itself always scans a copy of 1,333
// pixels on its short side (about a second a run under ASan); the model's entry point is the same code on the
// picture as given. Every box is finite and at or above the threshold; every window lies inside the picture.
import CropAnalysis
import CropKit

/// One input of `FuzzFaces`; libFuzzer calls it through `CropKitFuzz`, and `FuzzReplayTests` with every seed.
public func fuzzFaces(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size >= 3 else { return 0 }
    let width = 64 + Int(data[0]) % 128, height = 64 + Int(data[1]) % 128
    let bytes = UnsafeBufferPointer(start: data + 2, count: size - 2)
    let pixels = (0..<width * height * 3).map { bytes[$0 % bytes.count] }
    let image = RGBImage(width: width, height: height, pixels: pixels)
    let found = HOGFaceModel.frontal.detect(image, threshold: -1)
    for face in found {
        guard face.confidence.isFinite, face.confidence >= -1 - 1e-6, face.left <= face.right, face.top <= face.bottom
        else { fatalError("detection out of range: \(face)") }
    }
    let bounds = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
    let faces = found.map {
        Face(
            rect: Rect(
                x: Double($0.left), y: Double($0.top), width: Double($0.right - $0.left + 1),
                height: Double($0.bottom - $0.top + 1)), confidence: $0.confidence)
    }
    let side = Double(8 + Int(data[0] ^ data[1]) % 200)
    if let (window, _) = Face.window(Size(width: side, height: side * 0.75), keeping: faces, in: bounds) {
        guard window.minX >= -1e-9, window.minY >= -1e-9, window.maxX <= bounds.maxX + 1e-9,
            window.maxY <= bounds.maxY + 1e-9
        else { fatalError("window \(window) outside \(bounds)") }
    }
    return 0
}
