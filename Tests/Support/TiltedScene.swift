import CropPixels
import Foundation

/// A man-made scene with known level, turned clockwise by `degrees` on screen: a horizon across the frame and a
/// facade of random dark windows (axis-aligned rectangles) on a lighter wall, drawn with 4×4 supersampling and a
/// little deterministic noise. The straighten that levels it is `+degrees` (counter-clockwise).
///
/// With `lines: false` the same noise and shading, but blotches (discs) instead of straight edges.
public func tiltedScene(width: Int, height: Int, degrees: Double, seed: UInt64, lines: Bool = true) throws
    -> PixelBuffer
{
    var rng = SplitMix64(seed: seed)
    let cx = Double(width) / 2, cy = Double(height) / 2
    let span = Double(max(width, height)) * 1.5
    // Level-scene shapes in coordinates centred on the picture.
    let horizon = rng.double(-0.25...0.25) * Double(height)
    var boxes: [(x0: Double, y0: Double, x1: Double, y1: Double, tone: Double)] = []
    var discs: [(x: Double, y: Double, r: Double, tone: Double)] = []
    for _ in 0..<rng.int(8...16) {
        let w = rng.double(0.05...0.3) * Double(width), h = rng.double(0.05...0.3) * Double(height)
        let x = rng.double(-0.6...0.6) * Double(width), y = rng.double(-0.6...0.6) * Double(height)
        let tone = rng.double(20...90)
        if lines { boxes.append((x, y, x + w, y + h, tone)) } else { discs.append((x, y, (w + h) / 3, tone)) }
    }
    let c = cos(degrees * .pi / 180), s = sin(degrees * .pi / 180)
    func tone(_ x: Double, _ y: Double) -> Double {
        // Screen → level scene: undo the clockwise turn.
        let u = (x - cx) * c + (y - cy) * s, v = -(x - cx) * s + (y - cy) * c
        guard abs(u) < span, abs(v) < span else { return 128 }
        for b in boxes where u >= b.x0 && u < b.x1 && v >= b.y0 && v < b.y1 { return b.tone }
        for d in discs where (u - d.x) * (u - d.x) + (v - d.y) * (v - d.y) < d.r * d.r { return d.tone }
        if lines { return v < horizon ? 200 : 150 }
        return 150 + 30 * sin(u / 97) * cos(v / 131)
    }
    var samples = [UInt8](repeating: 0, count: width * height)
    for y in 0..<height {
        for x in 0..<width {
            var sum = 0.0
            for j in 0..<4 {
                for i in 0..<4 { sum += tone(Double(x) + (Double(i) + 0.5) / 4, Double(y) + (Double(j) + 0.5) / 4) }
            }
            let noise = Double(rng.int(-6...6))
            samples[y * width + x] = UInt8(clamping: Int((sum / 16 + noise).rounded()))
        }
    }
    return try PixelBuffer(width: width, height: height, layout: .gray, samples: samples)
}
