// libFuzzer target: the automatic straighten's analysis (StraightenDetector: the line segment detector, the
// sub-pixel edge refit, the tilt consensus and the projection profile) on a grey picture of up to 48 × 48 pixels made
// from the input. FuzzPipeline does not run it: the detector always works on a 1024-pixel copy, which under ASan took
// about a second per input, so a pipeline run with it made nine executions a second. The detector's input is the
// pixels whatever the file was, so this target reaches what a decoded picture can, at a few milliseconds an input.
// The estimate is finite, within the searched range, and its confidence within 0…1.
import CropAnalysis
import CropKit

/// One input of `FuzzStraighten`; libFuzzer calls it through `CropKitFuzz`, and `FuzzReplayTests` with every seed.
public func fuzzStraighten(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size >= 3 else { return 0 }
    let width = 8 + Int(data[0]) % 41, height = 8 + Int(data[1]) % 41
    let pixels = UnsafeBufferPointer(start: data + 2, count: size - 2)
    let samples = (0..<width * height).map { pixels[$0 % pixels.count] }
    guard let picture = try? PixelBuffer(width: width, height: height, layout: .gray, samples: samples) else {
        fatalError("a valid \(width)×\(height) grey picture was refused")
    }
    let estimate = StraightenDetector.estimate(LumaPlane(picture, logarithmic: true))
    guard estimate.angle.isFinite, abs(estimate.angle) <= StraightenDetector.maximumAngle + 0.5,
        (0...1).contains(estimate.confidence), estimate.support.isFinite, estimate.lines >= 0
    else { fatalError("estimate out of range: \(estimate)") }
    return 0
}
