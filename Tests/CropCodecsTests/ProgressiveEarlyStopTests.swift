import CropPixels
import Testing

@testable import CropCodecs

/// The 1/8 shortcut for progressive JPEGs: libjpeg's reduced IDCTs read only some coefficients, so decoding can stop
/// as soon as those are final.
@Suite("Progressive JPEG early stop")
struct ProgressiveEarlyStopTests {
    /// libjpeg's standard progressive script (jpeg_simple_progression) for YCbCr: 10 scans; the DC refinement is
    /// scan 7, the chroma AC refinements scans 8–9, the big luma AC refinement scan 10.
    static func progressive(_ subsampling: ChromaSubsampling, layout: ChannelLayout = .rgb) throws -> [UInt8] {
        let image = try TestImages.smooth(width: 203, height: 141, layout: layout, seed: 99)
        return try JPEGEncoder.encode(
            image, options: JPEGEncodeOptions(quality: 88, subsampling: subsampling, progressive: true))
    }

    static func decode(_ data: [UInt8], _ stop: JPEGEarlyStop, scale: JPEGScale = .eighth) throws
        -> (PixelBuffer, JPEGDecoder)
    {
        let decoder = try JPEGDecoder(data: data, options: DecodeOptions(jpegScale: scale, jpegEarlyStop: stop))
        return (try decoder.decodeAll(), decoder)
    }

    @Test(
        "exact early stop is byte-identical to a full decode at 1/8 and skips the last scans",
        arguments: [(ChromaSubsampling.s444, 7), (.s422, 7), (.s420, 9)])
    func exact(_ subsampling: ChromaSubsampling, _ expectedScans: Int) throws {
        let data = try Self.progressive(subsampling)
        let (full, fullDecoder) = try Self.decode(data, .off)
        let (fast, fastDecoder) = try Self.decode(data, .exact)
        #expect(!fullDecoder.stoppedEarly)
        #expect(fullDecoder.scansRead == 10)
        #expect(fastDecoder.stoppedEarly)
        // 4:4:4 and 4:2:2 need the DC scans only (every component uses the 1×1 IDCT); 4:2:0 chroma uses the 2×2
        // IDCT, which also reads AC coefficients, so the chroma refinement scans are needed too.
        #expect(fastDecoder.scansRead == expectedScans)
        let consumed = try #require(fastDecoder.bytesConsumedBeforeOutput)
        #expect(consumed < data.count)
        #expect(full.width == 26 && full.height == 18)
        #expect(fast == full, "early stop changed the pixels")
    }

    @Test("grayscale progressive files stop after the DC scans, byte-identical")
    func gray() throws {
        let data = try Self.progressive(.s444, layout: .gray)
        let (full, _) = try Self.decode(data, .off)
        let (fast, decoder) = try Self.decode(data, .exact)
        #expect(decoder.stoppedEarly)
        #expect(full.format == .gray8)
        #expect(fast == full)
    }

    @Test("DC-only stops earlier on 4:2:0 and stays close to the exact result")
    func dcOnly() throws {
        let data = try Self.progressive(.s420)
        let (exact, exactDecoder) = try Self.decode(data, .exact)
        let (approximate, dcDecoder) = try Self.decode(data, .dcOnly)
        #expect(dcDecoder.stoppedEarly)
        #expect(try #require(dcDecoder.scansRead) < exactDecoder.scansRead!)
        #expect(try #require(dcDecoder.bytesConsumedBeforeOutput) < exactDecoder.bytesConsumedBeforeOutput!)
        #expect(Measure.psnr(approximate, exact) > 30)
        // Where DC is all libjpeg reads (4:4:4), DC-only is exact.
        let data444 = try Self.progressive(.s444)
        #expect(try Self.decode(data444, .dcOnly).0 == Self.decode(data444, .off).0)
    }

    @Test(
        "DC-only keeps 2 bytes per block instead of libjpeg's 128; its pixels equal a full decode wherever DC is all the IDCT reads",
        arguments: [ChromaSubsampling.s444, .s422, .s420])
    func dcStore(_ subsampling: ChromaSubsampling) throws {
        let image = try TestImages.smooth(width: 1203, height: 805, seed: 7)
        let data = try JPEGEncoder.encode(
            image, options: JPEGEncodeOptions(quality: 90, subsampling: subsampling, progressive: true))
        let (full, fullDecoder) = try Self.decode(data, .off)
        let (dc, dcDecoder) = try Self.decode(data, .dcOnly)
        let lumaBlocks = 151 * 101
        let chromaBlocks =
            switch subsampling {
            case .s444: lumaBlocks
            case .s422: 76 * 101
            default: 76 * 51
            }
        // libjpeg pads each component to whole MCUs; the exact figure is at least the blocks × 128 bytes.
        let fullBytes = try #require(fullDecoder.coefficientBytes)
        #expect(fullBytes >= (lumaBlocks + 2 * chromaBlocks) * 128)
        let dcBytes = try #require(dcDecoder.coefficientBytes)
        #expect(dcBytes * 20 < fullBytes, "DC store \(dcBytes) B against \(fullBytes) B")
        #expect(dc.width == full.width && dc.height == full.height)
        if subsampling == .s420 {
            #expect(Measure.psnr(dc, full) > 30)
        } else {
            #expect(dc == full, "every component uses the 1×1 IDCT: DC is all it reads")
        }
    }

    @Test("no early stop at other scales or for baseline files")
    func notApplicable() throws {
        let data = try Self.progressive(.s444)
        let (_, quarter) = try Self.decode(data, .exact, scale: .quarter)
        #expect(!quarter.stoppedEarly)
        let baseline = try JPEGEncoder.encode(TestImages.smooth(width: 64, height: 64, seed: 3))
        let (_, decoder) = try Self.decode(baseline, .exact)
        #expect(!decoder.stoppedEarly)
        #expect(decoder.coefficientBytes == 0)
    }

    @Test("a progressive file with more scans than allowed is refused, in both paths")
    func scanLimit() throws {
        let data = try Self.progressive(.s420)
        for scale in [JPEGScale.full, .eighth] {
            let options = DecodeOptions(jpegScale: scale, maxProgressiveScans: 5)
            #expect(throws: CodecError.resourceLimit(format: .jpeg, message: "Progressive JPEG has more than 5 scans"))
            {
                try JPEGDecoder.decode(data, options: options)
            }
        }
        #expect(throws: Never.self) { try JPEGDecoder.decode(data, options: DecodeOptions(maxProgressiveScans: 10)) }
    }
}
