import CropKit
import Foundation
import Testing

/// `cropkit convert` to and from JPEG XL.
@Suite("cropkit convert: JPEG XL")
struct ConvertJXLTests {
    @Test("a JPEG converted to .jxl is recompressed losslessly and the saving printed; .jxl reads back shown upright")
    func recompression() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try CLI.writePicture(dir + "/photo.jpg", width: 96, height: 64, orientation: .rightTop, color: positionColor)
        let run = try CLI.run(["convert", "photo.jpg", "-o", "photo.jxl"], in: dir)
        #expect(run.status == 0, "\(run)")
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: dir + "/photo.jpg")).count
        let jxl = try Data(contentsOf: URL(fileURLWithPath: dir + "/photo.jxl")).count
        #expect(run.stdout.contains("recompressed the JPEG losslessly: \(jpeg) → \(jxl) bytes"), "\(run.stdout)")
        // The JPEG XL is shown as the JPEG is (orientation 6 carried into the codestream), within libjxl's rounding.
        let shown = try CLI.load(dir + "/photo.jxl")
        #expect(shown.width == 96 && shown.height == 64)
        expectPixel(shown.pixel(x: 48, y: 32), positionColor(48, 32).map(Int.init), tolerance: 12)
        // Back to PNG, and a lossy JPEG XL when a quality is asked for (no recompression then).
        let back = try CLI.run(["convert", "photo.jxl", "-o", "back.png"], in: dir)
        #expect(back.status == 0, "\(back)")
        let lossy = try CLI.run(["convert", "photo.jpg", "-o", "q.jxl", "--quality", "60"], in: dir)
        #expect(lossy.status == 0 && !lossy.stdout.contains("recompressed"), "\(lossy)")
        let info = try CLI.run(["info", "q.jxl"], in: dir)
        #expect(info.stdout.contains("JPEG XL 64×96") && info.stdout.contains("lossy (XYB)"), "\(info.stdout)")
    }
}
