import CropPixels
import Testing

@testable import CropCodecs

/// Baseline JPEGs encoded in stripes on two threads (``JPEGStripes``): byte-identical to one libjpeg encoder with the
/// stripes' restart interval, and the pixels of an encode without restart markers.
@Suite("JPEG encoded in stripes on two threads")
struct StripedEncoderTests {
    static func encode(_ image: PixelBuffer, _ options: JPEGEncodeOptions, bands: Int = 16) throws -> [UInt8] {
        let encoder = try JPEGEncoder(
            width: image.width, height: image.height, inputFormat: image.format, options: options)
        var row = 0
        while row < image.height {
            let count = min(bands, image.height - row)
            try encoder.writeRows(from: image, startRow: row, count: count)
            row += count
        }
        return try encoder.finish()
    }

    @Test(
        "pictures of every subsampling, gray, qualities and sizes: the striped file is libjpeg's own with the stripes' restart interval, byte for byte",
        arguments: [
            (1200, 900, ChromaSubsampling.s420, 90, ChannelLayout.rgb), (1024, 1030, .s444, 75, .rgb),
            (1501, 700, .s422, 60, .rgb), (999, 1100, .s420, 85, .gray), (333, 700, .s444, 95, .rgb),
        ])
    func sameBytes(
        _ width: Int, _ height: Int, _ subsampling: ChromaSubsampling, _ quality: Int, _ layout: ChannelLayout
    )
        throws
    {
        let image = try TestImages.smooth(width: width, height: height, layout: layout, seed: UInt64(width))
        var striped = JPEGEncodeOptions(quality: quality, subsampling: subsampling)
        striped.stripes = .always
        let layoutOfStripes = try #require(
            JPEGEncoder.stripeLayout(
                width: width, height: height, options: striped, components: layout.channelCount))
        var single = JPEGEncodeOptions(quality: quality, subsampling: subsampling)
        single.restartInterval = layoutOfStripes.restartInterval
        let stripedBytes = try Self.encode(image, striped, bands: 7)
        #expect(stripedBytes == (try Self.encode(image, single, bands: 40)))
        // Restart markers change no pixel.
        let plain = try Self.encode(image, JPEGEncodeOptions(quality: quality, subsampling: subsampling))
        #expect(try JPEGDecoder(data: stripedBytes).decodeAll() == (try JPEGDecoder(data: plain).decodeAll()))
        #expect(stripedBytes.count - plain.count < 6 * (height / layoutOfStripes.rows + 1))
    }

    @Test(
        "automatic stripes start at a megapixel; progressive, optimised tables and a restart interval of one's own are never striped"
    )
    func whereItApplies() throws {
        let small = try TestImages.smooth(width: 900, height: 1000, seed: 1)  // 0.9 MP
        var automatic = JPEGEncodeOptions(quality: 80)
        automatic.stripes = .automatic
        #expect(try Self.encode(small, automatic) == (try Self.encode(small, JPEGEncodeOptions(quality: 80))))
        let large = try TestImages.smooth(width: 1100, height: 1000, seed: 2)  // 1.1 MP
        #expect(try Self.encode(large, automatic) != (try Self.encode(large, JPEGEncodeOptions(quality: 80))))
        for tweak in 0..<3 {
            var options = JPEGEncodeOptions(quality: 80, progressive: tweak == 0, optimizeHuffman: tweak == 1)
            if tweak == 2 { options.restartInterval = 5 }
            var striped = options
            striped.stripes = .always
            #expect(try Self.encode(large, striped) == (try Self.encode(large, options)), "case \(tweak)")
        }
    }
}
