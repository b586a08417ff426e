import CropGeometry
import CropPixels
import Testing

@testable import CropCodecs

/// HEIF/AVIF shrink-on-load: blocks averaged straight from libheif's picture must equal the full decode averaged
/// the same way (an independent box average written here), exactly; and the iPhone photo at 1/8 must meet another
/// tool's decode shrunk by vips, within a mean of 0.6/255 and 3/255 per sample.
@Suite("HEIF/AVIF shrink-on-load")
struct HEIFShrinkOnLoadTests {
    /// Each `factor × factor` block of `pixels` averaged (clipped at the right and bottom edges), rounded.
    static func boxAveraged(_ pixels: PixelBuffer, by factor: Int) throws -> PixelBuffer {
        let width = (pixels.width + factor - 1) / factor, height = (pixels.height + factor - 1) / factor
        let channels = pixels.format.channelCount
        var samples = [UInt8](repeating: 0, count: width * height * channels)
        let source = pixels.samples
        for y in 0..<height {
            for x in 0..<width {
                let rows = (y * factor)..<min((y + 1) * factor, pixels.height)
                let columns = (x * factor)..<min((x + 1) * factor, pixels.width)
                for c in 0..<channels {
                    var sum = 0
                    for j in rows { for i in columns { sum += Int(source[(j * pixels.width + i) * channels + c]) } }
                    let count = rows.count * columns.count
                    samples[(y * width + x) * channels + c] = UInt8((sum + count / 2) / count)
                }
            }
        }
        return try PixelBuffer(width: width, height: height, layout: pixels.format.layout, samples: samples)
    }

    static func decode(_ path: String, _ scale: JPEGScale) throws -> (decoder: HEIFDecoder, pixels: PixelBuffer) {
        let format: ImageFormat = path.hasSuffix(".avif") ? .avif : .heif
        let decoder = try HEIFDecoder(
            data: try Fixtures.bytes(path), format: format, options: DecodeOptions(jpegScale: scale))
        return (decoder, try decoder.decodeAll())
    }

    @Test(
        "a 203×133 HEIC and AVIF (odd sizes: clipped blocks at the edges), by 2, 4 and 8",
        arguments: ["heif/odd420.heic", "avif/odd709.avif"], [JPEGScale.half, .quarter, .eighth])
    func matchesTheFullDecodeAveraged(_ path: String, _ scale: JPEGScale) throws {
        let full = try Self.decode(path, .full).pixels
        #expect(full.width == 203 && full.height == 133)
        let (decoder, shrunk) = try Self.decode(path, scale)
        let size = scale.scaledSize(width: 203, height: 133)
        #expect(decoder.outputWidth == size.width && decoder.outputHeight == size.height)
        #expect(shrunk.width == size.width && shrunk.height == size.height && shrunk.format == .rgb8)
        let reference = try Self.boxAveraged(full, by: scale.denominator)
        #expect(
            shrunk == reference, "mean \(meanDifference(shrunk, reference)), max \(maxDifference(shrunk, reference))")
    }

    @Test("the iPhone photo decoded at 1/8 matches heif-convert's decode shrunk 8×8 by vips")
    func iPhoneEighth() throws {
        let (decoder, shrunk) = try Self.decode("heif/pug.heic", .eighth)
        #expect(decoder.outputWidth == 504 && decoder.outputHeight == 378)
        let reference = try PNGDecoder.decode(Fixtures.bytes("heif/pug-heif-convert-shrink8.png")).pixels
        let mean = meanDifference(shrunk, reference), worst = maxDifference(shrunk, reference)
        #expect(mean < 0.6, "mean \(mean)")
        #expect(worst <= 3, "max \(worst)")
        #expect(
            decoder.metadata.iccProfile != nil && decoder.info.storedSize == PixelSize(validWidth: 4032, height: 3024))
    }

    @Test("pictures with alpha or more than 8 bits decode at full size whatever is asked")
    func fullSizeOnly() throws {
        for (path, width, height) in [("heif/alpha.heic", 110, 52), ("heif/ten-bit.heic", 64, 48)] {
            let (decoder, pixels) = try Self.decode(path, .half)
            #expect(!decoder.info.shrinksOnLoad, "\(path)")
            #expect(decoder.outputWidth == width && pixels.width == width && pixels.height == height, "\(path)")
        }
        #expect(try Self.decode("heif/odd420.heic", .half).decoder.info.shrinksOnLoad)
    }
}
