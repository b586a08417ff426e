import Foundation
import Testing

@testable import CropCodecs

@Suite("cropkit info report")
struct ImageInfoDescriptionTests {
    /// What `cropkit info` prints for each file: `PATH: SUMMARY`, or `PATH: ERROR` on standard error.
    static func report(_ paths: [String]) -> (lines: [String], errors: [String]) {
        var lines: [String] = [], errors: [String] = []
        for path in paths {
            do { lines.append("\(path): \(try ImageInfo.read(fileAtPath: path).summary)") } catch {
                errors.append("\(path): \(error)")
            }
        }
        return (lines, errors)
    }

    @Test("one line per file with every fact; bad files are errors and the rest still reported")
    func lines() throws {
        let dir = try FileIOTests.scratchDirectory()
        try FileIO.writeAtomically(Array("hello".utf8), toPath: dir + "/bad.jpg")
        let paths = [
            Fixtures.path("exif/landscape-6-mm.jpg"), dir + "/bad.jpg", Fixtures.path("pngsuite/png/basi6a16.png"),
            dir + "/missing.png", Fixtures.path("cmyk-adobe.jpg"),
        ]
        let (lines, errors) = Self.report(paths)
        #expect(
            errors == [
                dir + "/bad.jpg: not an image: no known image signature (starts with 68 65 6C 6C 6F)",
                dir + "/missing.png: cannot open " + dir + "/missing.png: No such file or directory",
            ])
        #expect(
            lines == [
                paths[0] + ": JPEG 43×64, orientation 6 (rotated 90° clockwise), displayed 64×43, 3 channels (RGB from "
                    + "YCbCr 4:2:0), 8-bit, no alpha, no ICC profile, baseline",
                // PngSuite's files say gAMA 1.0 (linear): described by a profile built from it.
                paths[2] + ": PNG 32×32, orientation 1 (normal), displayed 32×32, 4 channels (RGBA from RGBA, gAMA 1, "
                    + "described by an ICC profile built from them), 16-bit, alpha, ICC profile (564 bytes), interlaced",
                paths[4] + ": JPEG 64×32, orientation 1 (normal), displayed 64×32, 3 channels (RGB from CMYK (Adobe, "
                    + "inverted)), 8-bit, no alpha, no ICC profile, baseline",
            ])
    }

    @Test("JSON output is an array of objects with the same facts")
    func json() throws {
        let image = try TestImages.smooth(width: 30, height: 20, seed: 1)
        let dir = try FileIOTests.scratchDirectory()
        let path = dir + "/we\"ird\nname.jpg"
        let profile = try Fixtures.bytes("c2.icc")
        try FileIO.writeAtomically(
            JPEGEncoder.encode(
                image, metadata: ImageMetadata(orientation: .leftBottom, iccProfile: profile),
                options: JPEGEncodeOptions(progressive: true)), toPath: path)
        let png = Fixtures.path("pngsuite/png/tbrn2c08.png")
        let output = ImageInfo.json([
            (path, try ImageInfo.read(fileAtPath: path)), (png, try ImageInfo.read(fileAtPath: png)),
        ])
        let parsed = try #require(JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
        #expect(parsed.count == 2)
        let jpeg = parsed[0]
        #expect(jpeg["file"] as? String == path)
        #expect(jpeg["format"] as? String == "jpeg")
        #expect(jpeg["width"] as? Int == 30 && jpeg["height"] as? Int == 20)
        #expect(jpeg["orientation"] as? Int == 8)
        #expect(jpeg["displayedWidth"] as? Int == 20 && jpeg["displayedHeight"] as? Int == 30)
        #expect(jpeg["channels"] as? Int == 3)
        #expect(jpeg["bitDepth"] as? Int == 8)
        #expect(jpeg["alpha"] as? Bool == false)
        #expect(jpeg["icc"] as? Bool == true)
        #expect(jpeg["iccBytes"] as? Int == profile.count)
        #expect(jpeg["progressive"] as? Bool == true)
        #expect(jpeg["exif"] as? Bool == true)
        let second = parsed[1]
        #expect(second["layout"] as? String == "rgba")
        #expect(second["colorModel"] as? String == "RGB + tRNS, gAMA 1, described by an ICC profile built from them")
        #expect(second["alpha"] as? Bool == true)
        #expect(second["iccBytes"] as? Int == 564)
        #expect(ImageInfo.json([]) == "[]")
    }

    @Test("reading info never decodes pixels: a 24-megapixel photo's header is read from its first bytes")
    func headerOnly() throws {
        // A progressive 6000×4000 JPEG header followed by nothing: decoding would fail, info does not.
        let photo = "/work/shared/testdata/photos/unsplash-rachel-hisko-6000x4000.jpg"
        let source: [UInt8]
        if let bytes = try? FileIO.readPrefix(ofFileAtPath: photo, maxBytes: 4096).bytes {
            source = bytes
        } else {
            // Without the shared photos, fake one: a small progressive file's header with a patched size.
            var bytes = try JPEGEncoder.encode(
                TestImages.smooth(width: 16, height: 16, seed: 2), options: JPEGEncodeOptions(progressive: true))
            let sof = try #require(Bytes.jpegSegments(bytes).first { $0.marker == 0xC2 })
            bytes.replaceSubrange((sof.start + 5)..<(sof.start + 9), with: [0x0F, 0xA0, 0x17, 0x70])
            source = Array(bytes.prefix(sof.end + 300))
        }
        let info = try ImageInfo.read(source)
        #expect(info.width == 6000 && info.height == 4000)
        #expect(info.isProgressive)
        #expect(throws: CodecError.self) { try ImageCodec.decode(source) }
    }
}
