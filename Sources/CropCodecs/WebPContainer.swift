import CropGeometry

/// The RIFF container of a WebP file, read and written by CropKit itself (libwebp's demux and mux libraries are not
/// needed): the chunks around the bitstream that carry the ICC profile, the EXIF block, the canvas and animation.
///
/// Reading is bounds-checked throughout and total: any byte string either parses, with warnings for what was
/// repaired (a RIFF size past the data, a chunk cut short), or fails with a ``CodecError`` naming the problem.
package struct WebPContainer: Sendable {
    /// One chunk: its four-character code and where its payload lies in the file.
    package struct Chunk: Hashable, Sendable {
        package var fourCC: String
        package var payload: Range<Int>
    }

    /// The first frame of an animation: where it sits on the canvas and its bitstream chunks (ALPH, VP8 or VP8L).
    package struct Frame: Hashable, Sendable {
        package var x: Int
        package var y: Int
        package var width: Int
        package var height: Int
        package var chunks: [Chunk]
    }

    /// The file's chunks in order (the payloads of ANMF frames are not split further here).
    package private(set) var chunks: [Chunk]
    /// The canvas size from VP8X, when the file is in the extended format.
    package private(set) var canvas: PixelSize?
    /// The ICC profile (ICCP chunk).
    package private(set) var iccProfile: [UInt8]?
    /// The EXIF block as bare TIFF bytes (EXIF chunk; an `Exif\0\0` prefix some writers add is removed).
    package private(set) var exif: [UInt8]?
    /// Frames of an animation (ANMF chunks); 0 for a still picture.
    package private(set) var frameCount: Int
    /// The ANIM chunk's loop count (0: for ever, n: n plays), if there is one.
    package private(set) var loopCount: Int?
    /// The ANMF frames' durations added up, in milliseconds.
    package private(set) var totalDuration = 0
    /// The first frame of an animation.
    package private(set) var firstFrame: Frame?
    /// What was repaired while reading.
    package private(set) var warnings: [String] = []

    /// Whether the file is an animation.
    package var isAnimated: Bool { frameCount > 0 }

    /// Parses the container.
    ///
    /// - Throws: ``CodecError/notAnImage(reason:)`` without `RIFF….WEBP`, ``CodecError/truncated(format:detail:)``
    ///   when not even one chunk header follows, ``CodecError/corruptData(format:message:)`` for a VP8X or ANMF
    ///   chunk too short for its fields.
    /// - Complexity: O(number of chunks), plus copying the ICC and EXIF payloads.
    package init(_ bytes: [UInt8]) throws(CodecError) {
        guard bytes.count >= 12, Self.ascii(bytes, 0) == "RIFF", Self.ascii(bytes, 8) == "WEBP" else {
            throw .notAnImage(reason: "no RIFF/WEBP header")
        }
        var end = 8 + Self.u32(bytes, 4)
        var warnings: [String] = []
        if end > bytes.count || end < 12 {
            warnings.append("the RIFF size says \(end) bytes, the file has \(bytes.count)")
            end = bytes.count
        }
        let chunks = Self.chunks(bytes, in: 12..<end, warnings: &warnings)
        guard !chunks.isEmpty else {
            throw .truncated(format: .webp, detail: "no chunk after the RIFF header (\(bytes.count) bytes)")
        }
        self.chunks = chunks
        frameCount = 0
        for chunk in chunks {
            let payload = chunk.payload
            switch chunk.fourCC {
            case "VP8X":
                guard payload.count >= 10 else {
                    throw .corruptData(format: .webp, message: "VP8X chunk of \(payload.count) bytes (10 needed)")
                }
                canvas = PixelSize(
                    validWidth: Self.u24(bytes, payload.lowerBound + 4) + 1,
                    height: Self.u24(bytes, payload.lowerBound + 7) + 1)
            case "ICCP" where iccProfile == nil:
                iccProfile = Array(bytes[payload])
            case "EXIF" where exif == nil:
                var block = Array(bytes[payload])
                if block.starts(with: EXIF.jpegSegmentHeader) { block.removeFirst(EXIF.jpegSegmentHeader.count) }
                exif = block
            case "ANIM" where payload.count >= 6:
                loopCount = Int(bytes[payload.lowerBound + 4]) | Int(bytes[payload.lowerBound + 5]) << 8
            case "ANMF":
                frameCount += 1
                if payload.count >= 15 { totalDuration += Self.u24(bytes, payload.lowerBound + 12) }
                if firstFrame == nil {
                    guard payload.count >= 16 else {
                        throw .corruptData(format: .webp, message: "ANMF chunk of \(payload.count) bytes (16 needed)")
                    }
                    let p = payload.lowerBound
                    firstFrame = Frame(
                        x: 2 * Self.u24(bytes, p), y: 2 * Self.u24(bytes, p + 3), width: Self.u24(bytes, p + 6) + 1,
                        height: Self.u24(bytes, p + 9) + 1,
                        chunks: Self.chunks(bytes, in: (p + 16)..<payload.upperBound, warnings: &warnings))
                }
            default:
                break
            }
        }
        self.warnings = warnings
    }

    /// The chunks in `range`, stopping at the first one cut short (kept, clamped, with a warning).
    private static func chunks(_ bytes: [UInt8], in range: Range<Int>, warnings: inout [String]) -> [Chunk] {
        var chunks: [Chunk] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            let fourCC = ascii(bytes, offset)
            let size = u32(bytes, offset + 4)
            let start = offset + 8
            if size > range.upperBound - start {
                warnings.append("the \(fourCC) chunk claims \(size) bytes, \(range.upperBound - start) remain")
                chunks.append(Chunk(fourCC: fourCC, payload: start..<range.upperBound))
                break
            }
            chunks.append(Chunk(fourCC: fourCC, payload: start..<(start + size)))
            offset = start + size + (size & 1)
        }
        return chunks
    }

    /// A still WebP file holding only the first frame's bitstream (with its ALPH chunk, if any), for libwebp's
    /// still-image decoder.
    package func firstFrameFile(_ bytes: [UInt8]) -> [UInt8]? {
        guard let frame = firstFrame else { return nil }
        let alpha = frame.chunks.first { $0.fourCC == "ALPH" }
        guard let image = frame.chunks.first(where: { $0.fourCC == "VP8 " || $0.fourCC == "VP8L" }) else { return nil }
        var body: [UInt8] = []
        if let alpha, image.fourCC == "VP8 " {
            body += Self.vp8x(flags: 0x10, width: frame.width, height: frame.height)
            body += Self.chunk("ALPH", bytes[alpha.payload])
        }
        body += Self.chunk(image.fourCC, bytes[image.payload])
        return Self.riff(body)
    }

    /// Wraps the bitstream of a plain WebP file (as libwebp's encoder writes it) in the extended format with the
    /// given ICC profile and EXIF block: VP8X, ICCP, the bitstream chunks (ALPH, VP8/VP8L), EXIF. Without metadata
    /// the file is returned as it is.
    ///
    /// - Throws: ``CodecError/corruptData(format:message:)`` when `file` is not a WebP this could wrap.
    package static func addingMetadata(
        to file: [UInt8], width: Int, height: Int, hasAlpha: Bool, iccProfile: [UInt8]?, exif: [UInt8]?
    ) throws(CodecError) -> [UInt8] {
        guard iccProfile != nil || exif != nil else { return file }
        let container = try WebPContainer(file)
        let bitstream = container.chunks.filter { ["ALPH", "VP8 ", "VP8L"].contains($0.fourCC) }
        guard bitstream.contains(where: { $0.fourCC != "ALPH" }) else {
            throw .corruptData(format: .webp, message: "the encoder's output has no VP8 or VP8L chunk")
        }
        var flags: UInt8 = 0
        if iccProfile != nil { flags |= 0x20 }
        if hasAlpha { flags |= 0x10 }
        if exif != nil { flags |= 0x08 }
        var body = vp8x(flags: flags, width: width, height: height)
        if let iccProfile { body += chunk("ICCP", iccProfile[...]) }
        for part in bitstream { body += chunk(part.fourCC, file[part.payload]) }
        if let exif { body += chunk("EXIF", exif[...]) }
        return riff(body)
    }

    private static func vp8x(flags: UInt8, width: Int, height: Int) -> [UInt8] {
        var payload: [UInt8] = [flags, 0, 0, 0]
        for value in [width - 1, height - 1] {
            payload += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF)]
        }
        return chunk("VP8X", payload[...])
    }

    private static func chunk(_ fourCC: String, _ payload: ArraySlice<UInt8>) -> [UInt8] {
        var out = Array(fourCC.utf8) + le32(payload.count) + payload
        if payload.count & 1 == 1 { out.append(0) }
        return out
    }

    private static func riff(_ body: [UInt8]) -> [UInt8] {
        Array("RIFF".utf8) + le32(body.count + 4) + Array("WEBP".utf8) + body
    }

    private static func le32(_ value: Int) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24 & 0xFF)]
    }

    private static func ascii(_ bytes: [UInt8], _ offset: Int) -> String {
        String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
    }

    private static func u24(_ bytes: [UInt8], _ offset: Int) -> Int {
        Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16
    }

    private static func u32(_ bytes: [UInt8], _ offset: Int) -> Int {
        u24(bytes, offset) | Int(bytes[offset + 3]) << 24
    }
}
