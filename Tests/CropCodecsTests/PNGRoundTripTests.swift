import CropPixels
import Testing

@testable import CropCodecs

@Suite("PNG round trips")
struct PNGRoundTripTests {
    static let formats: [PixelFormat] = [
        .gray8, .grayAlpha8, .rgb8, .rgba8, .gray16, .grayAlpha16, .rgb16, .rgba16,
    ]

    @Test("8- and 16-bit images of every layout round-trip bit-exactly, odd sizes included", arguments: formats)
    func bitExact(_ format: PixelFormat) throws {
        for (i, (w, h)) in [(1, 1), (7, 3), (33, 17)].enumerated() {
            let image = try TestImages.random(width: w, height: h, format: format, seed: UInt64(100 + i))
            for level in [0, 6, 9] {
                let bytes = try PNGEncoder.encode(image, options: PNGEncodeOptions(compressionLevel: level))
                let decoded = try PNGDecoder.decode(bytes)
                #expect(decoded.pixels == image)
                #expect(decoded.info.bitDepth == format.depth.rawValue)
                #expect(decoded.warnings.isEmpty)
            }
        }
    }

    @Test("a padded stride round-trips too")
    func stride() throws {
        let image = try TestImages.random(width: 9, height: 5, format: .rgb16, seed: 5)
        var padded = try PixelBuffer(width: 9, height: 5, format: .rgb16, bytesPerRow: 9 * 6 + 10)
        for y in 0..<5 { for x in 0..<9 { padded.setPixel(x: x, y: y, image.pixel(x: x, y: y)) } }
        #expect(try PNGDecoder.decode(PNGEncoder.encode(padded)).pixels == image)
    }

    @Test("16-bit samples are written big-endian as PNG requires")
    func sixteenBitByteOrder() throws {
        let image = try PixelBuffer(width: 2, height: 1, layout: .gray, samples: [UInt16(0x1234), 0xABCD])
        let bytes = try PNGEncoder.encode(image, options: PNGEncodeOptions(compressionLevel: 0))
        // Level 0 stores the filtered row uncompressed: filter byte, then the samples.
        let row: [UInt8] = [0x12, 0x34, 0xAB, 0xCD]
        #expect(bytes.indices.contains { Array(bytes[$0..<min($0 + 4, bytes.count)]) == row })
    }

    @Test("compression level outside 0…9 is rejected")
    func badLevel() throws {
        let image = try TestImages.random(width: 2, height: 2, format: .gray8, seed: 1)
        #expect(throws: CodecError.invalidArgument(name: "compression level", reason: "10 is outside 0…9")) {
            try PNGEncoder.encode(image, options: PNGEncodeOptions(compressionLevel: 10))
        }
    }
}

@Suite("ICC profiles")
struct ICCTests {
    static let profileResult = Result { try Fixtures.bytes("c2.icc") }
    static var profile: [UInt8] { get throws { try profileResult.get() } }

    @Test(
        "the profile survives JPEG, PNG, WebP, HEIC and AVIF round trips; JPEG XL tags an sRGB-acting one sRGB",
        arguments: ImageFormat.writable.filter(\.holdsMetadata))
    func roundTrip(_ format: ImageFormat) throws {
        let image = try TestImages.smooth(width: 20, height: 12, seed: 4)
        let bytes = try ImageCodec.encode(image, as: format, metadata: ImageMetadata(iccProfile: try Self.profile))
        let decoded = try ImageCodec.decode(bytes)
        #expect(decoded.warnings.isEmpty, "\(decoded.warnings)")
        if format == .jxl {
            // c2 maps colours as sRGB does: a JPEG XL is tagged sRGB instead, to be coded in XYB (an Adobe RGB
            // profile is kept: MetadataPolicyTests).
            #expect(try ColorTransform.actsAsSRGB(Self.profile) && ColorTransform.isSRGB(Self.profile) == false)
            #expect(decoded.metadata.iccProfile == nil && decoded.info.colorModel == "lossy (XYB)")
            return
        }
        #expect(try decoded.metadata.iccProfile == Self.profile)
        #expect(try decoded.info.iccProfileSize == Self.profile.count)
    }

    @Test("a profile libpng refuses is dropped from a PNG with a warning, not a failure")
    func refusedByLibpng() throws {
        let rgb = try TestImages.smooth(width: 6, height: 6, seed: 4)
        let gray = try TestImages.smooth(width: 6, height: 6, layout: .gray, seed: 4)
        let garbage = (0..<600).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        for (image, profile) in [(rgb, garbage), (gray, try Self.profile)] {
            let encoder = try PNGEncoder(
                width: 6, height: 6, inputFormat: image.format, metadata: ImageMetadata(iccProfile: profile))
            try encoder.writeRows(from: image, startRow: 0, count: 6)
            let decoded = try PNGDecoder.decode(encoder.finish())
            #expect(!encoder.warnings.isEmpty)
            #expect(decoded.metadata.iccProfile == nil)
            #expect(decoded.pixels == image)
        }
    }

    @Test("a profile larger than one APP2 segment is split and reassembled")
    func multiSegment() throws {
        var rng = SplitMix64(seed: 77)
        let big = (0..<150_000).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        let image = try TestImages.smooth(width: 8, height: 8, seed: 4)
        let bytes = try JPEGEncoder.encode(image, metadata: ImageMetadata(iccProfile: big))
        #expect(Bytes.jpegSegments(bytes).filter { $0.marker == 0xE2 }.count == 3)
        #expect(try JPEGDecoder.decode(bytes).metadata.iccProfile == big)
    }

    @Test("ICC reassembly refuses payloads too short to be segments (found by FuzzICC: an empty one read past its end)")
    func iccShortPayloads() {
        for payloads: [[UInt8]] in [
            [[]], [[0x49]], [Array("ICC_PROFILE".utf8) + [0]], [Array("ICC_PROFILE".utf8) + [0, 1]],
        ] {
            let (profile, warning) = ICCProfileChunks.assemble(payloads)
            #expect(profile == nil && warning != nil, "\(payloads)")
        }
    }

    @Test("segments are reassembled by sequence number, in any order")
    func order() throws {
        let parts = try #require(ICCProfileChunks.split([UInt8](repeating: 7, count: 70_000) + [1, 2, 3]))
        #expect(parts.count == 2)
        #expect(
            ICCProfileChunks.assemble(parts.reversed()).profile == [UInt8](repeating: 7, count: 70_000) + [1, 2, 3])
    }

    @Test("inconsistent segment sets are rejected with a warning")
    func inconsistent() throws {
        let header = ICCProfileChunks.identifier
        let a = header + [1, 2, 10, 11], b = header + [2, 2, 12]
        let cases: [([[UInt8]], String)] = [
            ([a], "segment 2 of 2 is missing"),
            ([a, header + [1, 2, 99], b], "segment 1 appears twice with different parts"),
            ([a, header + [2, 3, 12]], "disagree on their count"),
            ([a, header + [3, 2, 12]], "number 3 is outside 1…2"),
            ([a, header + [2, 2]], "segment 2 is empty"),
            ([header + [1, 0, 5]], "disagree"),
        ]
        for (payloads, text) in cases {
            let result = ICCProfileChunks.assemble(payloads)
            #expect(result.profile == nil)
            #expect(result.warning?.contains(text) == true, "\(result.warning ?? "no warning") lacks \(text)")
        }
        #expect(ICCProfileChunks.assemble([a, b]).profile == [10, 11, 12])
        // The same segment twice (icc-after-SOF.jpg repeats its profile after SOF) is one segment.
        #expect(ICCProfileChunks.assemble([a, b, a]) == ([10, 11, 12], nil))
    }

    @Test("a JPEG with more than 255 ICC segments keeps none of them, with a warning")
    func tooManySegments() throws {
        var bytes = try JPEGEncoder.encode(TestImages.smooth(width: 8, height: 8, seed: 4))
        let segment: [UInt8] = [0xFF, 0xE2, 0x00, 0x11] + ICCProfileChunks.identifier + [1, 1, 42]
        bytes.insert(contentsOf: Array([[UInt8]](repeating: segment, count: 300).joined()), at: 2)
        let decoded = try JPEGDecoder.decode(bytes)
        #expect(decoded.metadata.iccProfile == nil)
        #expect(decoded.warnings.contains { $0.message.contains("more than 255") })
    }

    @Test("a JPEG with an inconsistent ICC set decodes, without the profile, with a warning")
    func inconsistentInFile() throws {
        let image = try TestImages.smooth(width: 8, height: 8, seed: 4)
        var bytes = try JPEGEncoder.encode(image, metadata: ImageMetadata(iccProfile: try Self.profile))
        let app2 = try #require(Bytes.jpegSegments(bytes).first { $0.marker == 0xE2 })
        bytes[app2.start + 4 + 12] = 2  // sequence number 2 of 1
        let decoded = try JPEGDecoder.decode(bytes)
        #expect(decoded.metadata.iccProfile == nil)
        #expect(decoded.warnings.contains { $0.source == .icc })
    }
}
