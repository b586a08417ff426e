import CropKit
// libFuzzer target: the streaming pipeline end to end on a hostile file: one decode (with shrink-on-load), a small
// resize or a straightened crop (band scheduler, source-row window), optional pixel steps, encoded to memory as JPEG,
// PNG, GIF or WebP (an animated GIF or WebP to GIF or WebP takes the animation path: every frame, FrameHandoff) (the
// automatic straighten's analysis has its own target, FuzzStraighten: it costs a second a run here). Every
// run either gives an output of the promised size or fails with CropKitError; teardown after a mid-picture error must
// not crash. The pixel limit (512 × 512) keeps runs small: mutated headers declare pictures up to it and the decoders
// fill what the bytes lack, so it sets the cost of a run (2 MP ran 9 per second under ASan).
import Foundation

/// One input of `FuzzPipeline`; libFuzzer calls it through `CropKitFuzz`, and `FuzzReplayTests` with every seed.
public func fuzzPipeline(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size >= 2 else { return 0 }
    let control = data[0], angle = Double(Int8(bitPattern: data[1])) / 4
    let bytes = Array(UnsafeBufferPointer(start: data + 2, count: size - 2))
    let limits = PixelLimits(maxPixels: 262_144, maxAnimationPixels: 2_097_152)
    let pipeline = ImagePipeline(limits: limits, strict: control & 1 != 0, maxThreads: 2)
    var steps: [ImageOperation] = []
    switch control >> 1 & 3 {
    case 0: steps = [.thumbnail(ThumbnailRequest(side: 24))]
    case 1: steps = [.straighten(angle), .fit(within: PixelSize(validWidth: 48, height: 48))]
    case 2: steps = [.turn(.clockwise), .crop(Rect(x: 1, y: 1, width: 30, height: 20)), .straighten(angle)]
    default: steps = [.resize(ResizeRequest(.width(17))), .roundCorners(.circle)]
    }
    let options = SaveOptions(format: [ImageFormat.jpeg, .png, .gif, .webp][Int(control >> 3 & 3)])
    if let output = try? pipeline.run(.data(bytes), steps, to: .data(options)) {
        guard output.size.width >= 1, output.size.height >= 1, !output.bytes.isEmpty else {
            fatalError("an empty output \(output.size)")
        }
    }
    return 0
}
