// libFuzzer target: a font file for text watermarks (FreeType reads it, HarfBuzz shapes a line in it, FreeType draws
// the outlines into a small plane), then the whole text mark with an outline and a shadow.
import CropCodecs
import CropKit
import CropPixels

/// One input of `FuzzFont`; libFuzzer calls it through `CropKitFuzz`, and `FuzzReplayTests` with every seed.
public func fuzzFont(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard let font = try? FontFace(data: Array(UnsafeBufferPointer(start: data, count: size))) else { return 0 }
    // A line most fonts can draw; a font without those glyphs is still shaped as far as the first missing one.
    for text in ["Hafi Wo ©", "A"] {
        for pixelSize in [7.0, 90.0] {
            _ = try? font.measure(text, pixelSize: pixelSize)
            let plane = try? font.coverage(of: text, pixelSize: pixelSize, width: 200, height: 60, x: 3.5, baseline: 45)
            if let plane, plane.count != 200 * 60 { fatalError("a 200×60 plane came back with \(plane.count) samples") }
        }
    }
    if let line = try? TextMark("Hafi", font: font, color: .white, outline: .black, shadow: .black),
        let mark = try? Watermark(text: line, scale: 0.8)
    {
        _ = try? ImagePipeline().run(.data(grey), [.watermark(mark)])
    }
    return 0
}

/// A 160×90 grey PNG to lay the mark over.
private let grey = try! ImageCodec.encode(
    try! PixelBuffer(width: 160, height: 90, layout: .rgb, samples: [UInt8](repeating: 90, count: 160 * 90 * 3)),
    as: .png)
