import CropPixels
import Testing

@testable import CropCodecs

@Suite("Format detection by magic bytes")
struct FormatDetectionTests {
    @Test("JPEG and PNG signatures are recognised, whatever follows")
    func supported() throws {
        #expect(try ImageFormat.detect([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10]) == .jpeg)
        #expect(try ImageFormat.detect([0xFF, 0xD8, 0xFF]) == .jpeg)
        #expect(try ImageFormat.detect([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) == .png)
        #expect(try ImageFormat.detect(Fixtures.bytes("photo-128.png")) == .png)
        #expect(try ImageFormat.detect(Fixtures.bytes("cmyk-adobe.jpg")) == .jpeg)
        #expect(try ImageFormat.detect(Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8 ".utf8)) == .webp)
        #expect(try ImageFormat.detect(Fixtures.bytes("webp/animated.webp")) == .webp)
        #expect(try ImageFormat.detect(Array("GIF89a".utf8) + [1, 0, 1, 0]) == .gif)
        #expect(try ImageFormat.detect(Array("GIF87a".utf8)) == .gif)
        #expect(throws: CodecError.self) { try ImageFormat.detect(Array("GIF88a".utf8) + [0, 0]) }
    }

    @Test("TIFF and BigTIFF, little- and big-endian, are TIFF; GIF87a and GIF89a are GIF")
    func tiffAndGIF() throws {
        for head: [UInt8] in [
            [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0], [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8],
            [0x49, 0x49, 0x2B, 0x00, 8, 0, 0, 0], [0x4D, 0x4D, 0x00, 0x2B, 0, 8, 0, 0],
        ] {
            #expect(try ImageFormat.detect(head) == .tiff)
        }
        #expect(try ImageFormat.detect(Fixtures.bytes("tiff/rgb-lzw-strips.tif")) == .tiff)
        #expect(try ImageFormat.detect(Fixtures.bytes("gif/plain.gif")) == .gif)
        #expect(ImageFormat.gif.isWritable && !ImageFormat.tiff.isWritable && ImageFormat.webp.isWritable)
        #expect(!ImageFormat.gif.holdsMetadata && ImageFormat.png.holdsMetadata && !ImageFormat.bmp.holdsMetadata)
        #expect(ImageFormat.gif.defaultOutput == .gif && ImageFormat.tiff.defaultOutput == .png)
        #expect(ImageFormat.avif.defaultOutput == .avif)
        #expect(ImageFormat.writable == [.jpeg, .png, .webp, .heif, .avif, .gif, .jxl])
        let image = try PixelBuffer(width: 2, height: 2, format: .rgb8)
        for format in [ImageFormat.tiff, .bmp] {
            #expect(throws: ImageCodec.notWritable(format)) { try ImageCodec.encode(image, as: format) }
        }
    }

    @Test(
        "JPEG XL: a bare codestream (FF 0A) and the container's signature box; a cut container signature is truncated")
    func jpegXL() throws {
        #expect(try ImageFormat.detect([0xFF, 0x0A, 1, 2]) == .jxl)
        #expect(try ImageFormat.detect(Fixtures.bytes("jxl/photo-lossy.jxl")) == .jxl)
        #expect(try ImageFormat.detect(Fixtures.bytes("jxl/orientation6.jxl")) == .jxl)  // the container
        #expect(
            throws: CodecError.truncated(
                format: .jxl, detail: "only 8 bytes, not even a complete JPEG XL signature")
        ) {
            try ImageFormat.detect([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20])
        }
        #expect(ImageFormat(pathExtensionOf: "a/b.JXL") == .jxl && ImageFormat.jxl.mimeType == "image/jxl")
        #expect(
            ImageFormat.jxl.isWritable && ImageFormat.jxl.defaultOutput == .jxl && ImageFormat.jxl.defaultQuality == 75)
    }

    @Test("empty data is not an image")
    func empty() throws {
        #expect(throws: CodecError.notAnImage(reason: "the data is empty (0 bytes)")) {
            try ImageFormat.detect([UInt8]())
        }
    }

    @Test("every proper prefix of a signature is truncated data of that format")
    func prefixes() throws {
        let signatures: [(ImageFormat, [UInt8])] = [
            (.jpeg, [0xFF, 0xD8, 0xFF]), (.png, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
        ]
        for (format, signature) in signatures {
            for length in 1..<signature.count {
                do {
                    _ = try ImageFormat.detect(signature.prefix(length))
                    Issue.record("\(format) prefix of \(length) bytes was accepted")
                } catch {
                    guard case .truncated(let f, _) = error else {
                        Issue.record("prefix of \(length) bytes: \(error)")
                        continue
                    }
                    #expect(f == format)
                }
            }
        }
    }

    static let otherFormats: [(String, [UInt8])] = [
        ("Photoshop (PSD)", Array("8BPS".utf8) + [0, 1, 0, 0, 0, 0, 0, 0]),
        ("QOI", Array("qoif".utf8) + [0, 0, 1, 0, 0, 0, 1, 0, 3, 0]),
        ("DirectDraw Surface (DDS)", Array("DDS ".utf8) + [124, 0, 0, 0]),
        ("Windows icon (ICO)", [0, 0, 1, 0, 1, 0, 16, 16, 0, 0]),
        ("Windows cursor (CUR)", [0, 0, 2, 0, 1, 0, 32, 32, 0, 0]),
        ("Netpbm (PNM, P6)", Array("P6\n3 2\n255\n".utf8)),
        ("Netpbm (PNM, P1)", Array("P1 2 2 0 1 1 0".utf8)),
        ("OpenEXR", [0x76, 0x2F, 0x31, 0x01, 2, 0, 0, 0]),
        ("Radiance HDR", Array("#?RADIANCE\n".utf8)),
        ("PDF", Array("%PDF-1.7\n".utf8)),
        ("SVG (a vector drawing)", Array("<svg xmlns=\"http://www.w3.org/2000/svg\">".utf8)),
        (
            "video (MP4/QuickTime, brand isom)",
            [0, 0, 0, 0x20] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isomiso2".utf8)
        ),
        (
            "ISO media, brand '\\xF3\\x80i\\x00'",
            [0, 0, 0, 0x10] + Array("ftyp".utf8) + [0xF3, 0x80, 0x69, 0x00, 0, 0, 0, 0]
        ),
        // Tiny headers of the formats the corpus (Pillow, ImageMagick, libvips …) holds that CropKit does not read.
        ("Truevision TGA", [0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 64, 0, 32, 0, 24, 0x00]),
        ("Truevision TGA", [0, 1, 9, 0, 0, 0, 1, 24, 0, 0, 0, 0, 16, 0, 16, 0, 8, 0x20]),
        ("PostScript (EPS)", Array("%!PS-Adobe-3.0 EPSF-3.0\n".utf8)),
        ("PostScript (EPS)", [0xC5, 0xD0, 0xD3, 0xC6, 30, 0, 0, 0]),
        ("Silicon Graphics image (SGI)", [0x01, 0xDA, 0x01, 0x01, 0, 3, 0, 64]),
        ("Blizzard texture (BLP)", Array("BLP2".utf8) + [1, 0, 0, 0]),
        ("FITS", Array("SIMPLE  =                    T".utf8)),
        ("Sun raster", [0x59, 0xA6, 0x6A, 0x95, 0, 0, 0, 64]),
        ("X pixmap (XPM)", Array("/* XPM */\nstatic char *x[] = {".utf8)),
        ("X bitmap (XBM)", Array("#define x_width 16\n".utf8)),
        ("Portable float map (PFM)", Array("PF\n4 4\n-1.0\n".utf8)),
        ("JPEG Network Graphics (JNG)", [0x8B, 0x4A, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 16]),
        ("Multiple-image Network Graphics (MNG)", [0x8A, 0x4D, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 28]),
        ("ImageMagick (MIFF)", Array("id=ImageMagick  version=1.0\n".utf8)),
        ("Windows metafile (WMF)", [0xD7, 0xCD, 0xC6, 0x9A, 0, 0, 0, 0]),
        ("multi-page PCX (DCX)", [0xB1, 0x68, 0xDE, 0x3A, 16, 0, 0, 0]),
        ("Autodesk animation (FLI/FLC)", [0x00, 0x40, 0x00, 0x00, 0x12, 0xAF, 1, 0]),
        ("PC Paintbrush (PCX)", [0x0A, 5, 1, 8, 0, 0, 0, 0, 63, 0, 63, 0]),
    ]

    @Test("the corpus's Photoshop file is named, not called 'not an image'")
    func photoshop() throws {
        #expect(throws: CodecError.unsupportedFormat("Photoshop (PSD)")) {
            try ImageFormat.detect(Array("8BPS".utf8) + [0, 1, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 128])
        }
    }

    @Test(
        "HEIF pictures libheif does not read say what they are: uncompressed ('unci'), JPEG-coded ('jpeg')",
        arguments: [("uncompressed_comp_RGB.heif", "unci"), ("jpeg32.heif", "jpeg")])
    func unreadHEIF(_ name: String, _ type: String) throws {
        let bytes = try Fixtures.bytes("corpus-findings/" + name)
        #expect(try ImageFormat.detect(bytes) == .heif)
        #expect(ISOBoxReader(bytes: bytes).primaryItemType() == type)
        do {
            _ = try HEIFDecoder(data: bytes)
            // A libheif that reads the coding decodes it; then there is nothing to name.
        } catch {
            let text = error.description
            #expect(
                text.hasPrefix("unsupported HEIF feature: ") && text.contains("'\(type)' items"), "\(name): \(text)")
        }
    }

    @Test("other image formats are named as unsupported", arguments: otherFormats)
    func unsupported(_ name: String, _ bytes: [UInt8]) throws {
        #expect(throws: CodecError.unsupportedFormat(name)) { try ImageFormat.detect(bytes) }
    }

    @Test("a library's message is printed as text: UTF-8 kept, control bytes and a message that is not UTF-8 escaped")
    func libraryMessages() {
        #expect(ShimStatus.printableMessage(Array("a 64×64 tile".utf8)) == "a 64×64 tile")
        #expect(ShimStatus.printableMessage(Array("bad\ttab".utf8)) == "bad\\x09tab")
        #expect(
            ShimStatus.printableMessage(Array("brand '".utf8) + [0xF3, 0x80, 0x80, 0x69, 0x27])
                == "brand '\\xF3\\x80\\x80i'")
    }

    @Test("random bytes are not an image and the message shows the first bytes")
    func randomBytes() throws {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<200 {
            var bytes = (0..<64).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            bytes[0] = 0x12  // no signature starts with 0x12
            do {
                _ = try ImageFormat.detect(bytes)
                Issue.record("random bytes accepted")
            } catch {
                guard case .notAnImage(let reason) = error else {
                    Issue.record("unexpected \(error)")
                    continue
                }
                #expect(reason.contains("12 "))
            }
        }
    }

    @Test("file extensions map to formats, case-insensitively")
    func extensions() throws {
        #expect(ImageFormat(pathExtensionOf: "a/b/photo.JPG") == .jpeg)
        #expect(ImageFormat(pathExtensionOf: "photo.jpeg") == .jpeg)
        #expect(ImageFormat(pathExtensionOf: "x.png") == .png)
        #expect(ImageFormat(pathExtensionOf: "x.gif") == .gif)
        #expect(ImageFormat(pathExtensionOf: "scan.TIFF") == .tiff && ImageFormat(pathExtensionOf: "a.tif") == .tiff)
        #expect(ImageFormat(pathExtensionOf: "x.bmp") == .bmp && ImageFormat(pathExtensionOf: "X.DIB") == .bmp)
        #expect(ImageFormat(pathExtensionOf: "x.psd") == nil)
        #expect(ImageFormat(pathExtensionOf: ".png") == nil)
        #expect(ImageFormat(pathExtensionOf: "dir.png/file") == nil)
    }
}
