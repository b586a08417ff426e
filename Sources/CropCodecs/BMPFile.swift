import CropPixels

/// A Windows or OS/2 bitmap's headers, read and checked: CropKit's own BMP reader (no maintained C library reads
/// every BMP kind with the limits the other decoders have; libvips and Pillow carry their own readers too).
///
/// Read: the core (12-byte), OS/2 2.x (16 to 64 bytes) and Windows info headers (40, 52, 56, 108 and 124 bytes);
/// 1, 2, 4 and 8-bit palettes, uncompressed or RLE8/RLE4; 16, 24 and 32-bit pixels with the default layouts or bit
/// fields (alpha when the header gives an alpha mask); bottom-up and top-down rows; an ICC profile embedded in a
/// version 5 header. Every offset and count is checked against the bytes there are before anything is allocated.
struct BMPFile {
    enum Compression: Equatable {
        case none, rle8, rle4, bitFields
    }

    /// A channel's bit field: where its bits sit in a pixel and how many there are.
    struct Field: Equatable {
        var shift: Int
        var bits: Int

        /// The field of a mask: its bits must be one contiguous run (of at most 32).
        init?(mask: UInt32) {
            guard mask != 0 else { return nil }
            shift = mask.trailingZeroBitCount
            let run = mask >> UInt32(shift)
            bits = (~run).trailingZeroBitCount
            guard run == (bits == 32 ? UInt32.max : (1 << UInt32(bits)) - 1) else { return nil }
        }

        /// The channel's value on 0…255: a narrower field scaled and rounded (a 5-bit 16 is 132), as bmpsuite's
        /// reference pictures show it (Pillow truncates, one step lower in a third of the values); a wider field's
        /// top 8 bits.
        func value(_ pixel: UInt32) -> UInt8 {
            let raw = UInt64(pixel >> UInt32(shift)) & ((1 << UInt64(bits)) - 1)
            guard bits < 8 else { return UInt8(raw >> UInt64(bits - 8)) }
            let top = (UInt64(1) << UInt64(bits)) - 1
            return UInt8((raw * 255 + top / 2) / top)
        }
    }

    let width: Int
    let height: Int
    /// Rows stored from the top (a negative height), not from the bottom as usual.
    let topDown: Bool
    let bitsPerPixel: Int
    let compression: Compression
    /// Red, green, blue and (when the header gives one) alpha fields for 16- and 32-bit pixels.
    let fields: [Field]
    /// Entries in the colour table (palette pictures; 0 otherwise).
    let paletteCount: Int
    /// The colour table flat, 256 entries of R, G, B (black past ``paletteCount``), for the per-pixel loops.
    let colors: [UInt8]
    /// Where the pixels start.
    let pixelOffset: Int
    let headerSize: Int
    /// The embedded ICC profile's bytes, when a version 5 header embeds one.
    let iccProfile: [UInt8]?
    /// What was repaired or ignored while reading the headers.
    let repairs: [String]

    var hasAlpha: Bool { fields.count == 4 }

    /// Bits per sample as stored: the index's for a palette, the widest bit field's (8 for 24-bit BGR).
    var bitsPerSample: Int { bitsPerPixel <= 8 ? bitsPerPixel : bitsPerPixel == 24 ? 8 : fields.map(\.bits).max() ?? 8 }

    /// The bytes of one stored row of uncompressed pixels (rows are padded to 4 bytes).
    var rowBytes: Int { (width * bitsPerPixel + 31) / 32 * 4 }

    /// "BMP 3, 8-bit palette of 256, RLE8"-style words for ``ImageInfo/colorModel``.
    var description: String {
        let version =
            switch headerSize {
            case 12: "OS/2 1.x BMP"
            case 40: "BMP 3"
            case 52, 56: "BMP 3 (Adobe bit fields)"
            case 108: "BMP 4"
            case 124: "BMP 5"
            default: "OS/2 2.x BMP"
            }
        var words = [version]
        if bitsPerPixel <= 8 {
            words.append("\(bitsPerPixel)-bit palette of \(paletteCount)")
        } else if bitsPerPixel == 24 {
            words.append("24-bit BGR")
        } else {
            let bits = fields.map { String($0.bits) }.joined(separator: "-")
            words.append("\(bitsPerPixel)-bit \(hasAlpha ? "BGRA" : "BGR") \(bits)")
        }
        switch compression {
        case .rle8: words.append("RLE8")
        case .rle4: words.append("RLE4")
        case .bitFields: words.append("bit fields")
        case .none: break
        }
        if topDown { words.append("top-down") }
        return words.joined(separator: ", ")
    }

    /// Reads and checks the headers and the colour table of `bytes`.
    ///
    /// - Throws: ``CodecError/truncated(format:detail:)`` when the headers or colour table end early,
    ///   ``CodecError/corruptData(format:message:)`` for a header no BMP has (a size, a depth, a compression or a
    ///   mask that cannot be), ``CodecError/unsupportedFeature(format:feature:)`` for JPEG or PNG inside a BMP and
    ///   OS/2's Huffman and RLE24 codings.
    init(_ bytes: [UInt8]) throws(CodecError) {
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
        }
        func corrupt(_ message: String) -> CodecError { .corruptData(format: .bmp, message: message) }
        guard bytes.count >= 18, bytes[0] == 0x42, bytes[1] == 0x4D else {
            throw bytes.count < 18 && bytes.starts(with: [0x42, 0x4D])
                ? .truncated(format: .bmp, detail: "only \(bytes.count) bytes, not even a file header")
                : .notAnImage(reason: "no BMP signature")
        }
        var repairs: [String] = []
        let headerSize = Int(u32(14))
        guard headerSize == 12 || (16...64).contains(headerSize) || [108, 124].contains(headerSize) else {
            throw corrupt("a \(headerSize)-byte info header, which no BMP version has")
        }
        guard bytes.count >= 14 + headerSize else {
            throw .truncated(
                format: .bmp, detail: "the \(headerSize)-byte info header ends after \(bytes.count - 14) bytes")
        }
        let os2v2 = (16...64).contains(headerSize) && ![40, 52, 56].contains(headerSize)
        var width: Int, height: Int, planes: Int, bits: Int
        var rawCompression: UInt32 = 0, colorsUsed = 0
        if headerSize == 12 {
            (width, height, planes, bits) = (u16(18), u16(20), u16(22), u16(24))
        } else {
            width = Int(Int32(bitPattern: u32(18)))
            height = Int(Int32(bitPattern: u32(22)))
            (planes, bits) = (u16(26), u16(28))
            // OS/2 2.x headers may stop after any field; what they leave out is zero.
            if headerSize >= 20 { rawCompression = u32(30) }
            if headerSize >= 36 { colorsUsed = Int(u32(46)) }
        }
        guard width > 0, height != 0, height != Int(Int32.min) else {
            throw corrupt("a \(width)×\(height) picture")
        }
        if planes != 1 { repairs.append("the header says \(planes) planes, not 1") }
        let compression: Compression
        if os2v2 && (rawCompression == 3 || rawCompression == 4) {
            throw .unsupportedFeature(
                format: .bmp, feature: rawCompression == 3 ? "OS/2 Huffman 1D coding" : "OS/2 RLE24 coding")
        }
        switch (rawCompression, bits) {
        case (0, 1), (0, 2), (0, 4), (0, 8), (0, 16), (0, 24), (0, 32): compression = .none
        case (1, 8): compression = .rle8
        case (2, 4): compression = .rle4
        case (3, 16), (3, 32), (6, 16), (6, 32): compression = .bitFields
        case (4, _), (5, _):
            throw .unsupportedFeature(
                format: .bmp, feature: rawCompression == 4 ? "a JPEG inside the BMP" : "a PNG inside the BMP")
        default:
            throw corrupt("\(bits)-bit pixels with compression \(rawCompression), which BMP does not have")
        }
        let topDown = height < 0
        if topDown && compression != .none && compression != .bitFields {
            repairs.append("a top-down picture with RLE coding, which BMP does not allow: read top-down")
        }
        self.width = width
        self.height = abs(height)
        self.topDown = topDown
        self.bitsPerPixel = bits
        self.compression = compression
        self.headerSize = headerSize
        var pixelOffset = Int(u32(10))

        // Bit fields: in the header from version 3 with Adobe's additions (52 and 56 bytes) up, else after a 40-byte
        // header (three masks, or four for ALPHABITFIELDS).
        var masks: [UInt32] = []
        var tableStart = 14 + headerSize
        if compression == .bitFields {
            if headerSize >= 52 {
                masks = [u32(54), u32(58), u32(62)] + (headerSize >= 56 ? [u32(66)] : [])
            } else {
                let count = rawCompression == 6 ? 4 : 3
                guard bytes.count >= tableStart + 4 * count else {
                    throw .truncated(format: .bmp, detail: "the bit masks end the file")
                }
                masks = (0..<count).map { u32(tableStart + 4 * $0) }
                tableStart += 4 * count
            }
        } else if bits == 16 {
            masks = [0x7C00, 0x03E0, 0x001F]
        } else if bits == 32 {
            masks = [0xFF_0000, 0xFF00, 0xFF]
        }
        var fields: [Field] = []
        if bits == 16 || bits == 32 {
            for (channel, mask) in masks.prefix(3).enumerated() {
                guard let field = Field(mask: mask), mask >> bits == 0 else {
                    throw corrupt(
                        "the \(["red", "green", "blue"][channel]) mask 0x\(String(mask, radix: 16)) is not one run of bits inside a \(bits)-bit pixel"
                    )
                }
                fields.append(field)
            }
            if masks.count == 4, masks[3] != 0 {
                guard let alpha = Field(mask: masks[3]), masks[3] >> bits == 0 else {
                    throw corrupt(
                        "the alpha mask 0x\(String(masks[3], radix: 16)) is not one run of bits inside a \(bits)-bit pixel"
                    )
                }
                fields.append(alpha)
            }
        }
        self.fields = fields

        // The colour table: 3-byte entries after a core header, else 4; as many as the header says (or the depth
        // allows), at most 256, and no further than the pixels or the file. Pixels said to start inside the headers
        // start after them (and the colour table), as Pillow reads such files.
        var colors = [UInt8](repeating: 0, count: 3 * 256), present = 0
        let entry = headerSize == 12 ? 3 : 4
        let wanted = bits > 8 ? 0 : colorsUsed == 0 || colorsUsed > 1 << bits ? 1 << bits : colorsUsed
        if pixelOffset < tableStart || (bits <= 8 && pixelOffset == tableStart) {
            let start = tableStart + wanted * entry
            repairs.append(
                "the pixels are said to start at byte \(pixelOffset), inside the headers: read from byte \(start)")
            pixelOffset = start
        }
        if bits <= 8 {
            let end = pixelOffset > tableStart ? min(pixelOffset, bytes.count) : bytes.count
            present = max(0, min(wanted, (end - tableStart) / entry))
            if present == 0 { throw .truncated(format: .bmp, detail: "the colour table is missing") }
            if present < wanted && colorsUsed != 0 {
                repairs.append("the colour table holds \(present) of its \(wanted) colours")
            }
            for i in 0..<present {
                let at = tableStart + i * entry
                (colors[3 * i], colors[3 * i + 1], colors[3 * i + 2]) = (bytes[at + 2], bytes[at + 1], bytes[at])
            }
        }
        paletteCount = present
        self.colors = colors

        // A version 5 header may embed an ICC profile (colour space 'MBED'), placed from the header's start.
        var profile: [UInt8]? = nil
        if headerSize == 124, u32(70) == 0x4D42_4544 {
            let offset = 14 + Int(u32(126)), size = Int(u32(130))
            if size > 0, offset <= bytes.count, size <= bytes.count - offset {
                profile = Array(bytes[offset..<(offset + size)])
            } else {
                repairs.append("the embedded ICC profile (\(size) bytes at \(offset)) lies outside the file: ignored")
            }
        }
        iccProfile = profile
        self.pixelOffset = pixelOffset
        guard pixelOffset < bytes.count else {
            throw .truncated(format: .bmp, detail: "the pixels should start at byte \(pixelOffset) of \(bytes.count)")
        }
        self.repairs = repairs
    }

    /// RLE8 or RLE4: decoded whole, from the bottom row up. The others are read row by row in any order.
    var isRunLengthCoded: Bool { compression == .rle8 || compression == .rle4 }

    /// The complete stored rows in a file of `size` bytes (the last may lack its padding).
    func completeRows(fileSize size: Int) -> Int {
        let used = (width * bitsPerPixel + 7) / 8
        return min(height, size - pixelOffset < used ? 0 : (size - pixelOffset - used) / rowBytes + 1)
    }

    /// What a file of `size` bytes that ends before its last row is repaired with, if it does.
    func missingRowsRepair(fileSize size: Int) -> String? {
        let complete = completeRows(fileSize: size)
        return complete < height ? "the file ends after \(complete) of \(height) rows: the rest are black" : nil
    }

    /// Whether a bitmap with an alpha field has 0 in every alpha value its rows hold (writers that leave the alpha
    /// bits zero mean no alpha; browsers show such a file opaque).
    func alphaIsAllZero(_ bytes: [UInt8]) -> Bool {
        guard hasAlpha, !isRunLengthCoded else { return false }
        let size = bitsPerPixel / 8, alpha = fields[3]
        for row in 0..<completeRows(fileSize: bytes.count) {
            let start = pixelOffset + row * rowBytes
            for x in 0..<width {
                var pixel: UInt32 = 0
                for k in 0..<size { pixel |= UInt32(bytes[start + size * x + k]) << UInt32(8 * k) }
                if alpha.value(pixel) != 0 { return false }
            }
        }
        return true
    }

    /// Decodes displayed row `y` (0 at the top) of a bitmap that is not run-length coded into `out` (RGB8 or RGBA8
    /// as ``hasAlpha``); a row the file does not hold is left as it is. Returns whether it met a colour index past
    /// the table (drawn black). With `opaque`, alpha is 255.
    func decodeDisplayedRow(_ y: Int, _ bytes: [UInt8], into out: UnsafeMutablePointer<UInt8>, opaque: Bool) -> Bool {
        let stored = topDown ? y : height - 1 - y
        guard stored < completeRows(fileSize: bytes.count) else { return false }
        var badIndex = false
        let channels = hasAlpha ? 4 : 3
        bytes.withUnsafeBufferPointer { all in
            badIndex = decodeRow(all.baseAddress! + pixelOffset + stored * rowBytes, into: out, channels: channels)
        }
        if opaque { for x in 0..<width { out[4 * x + 3] = 255 } }
        return badIndex
    }

    /// The repairs of an all-zero alpha and of indices past the table, as decoding reports them.
    static let opaqueRepair = "every alpha value is 0: shown opaque, as browsers show it"
    func badIndexRepair() -> String { "colour indices past the \(paletteCount)-colour table: black" }

    /// Decodes the pixels into `output` (cleared, `width × height`, RGB8 or RGBA8 as ``hasAlpha``), top row first.
    /// Returns what was repaired: rows or RLE data missing at the end (left black, index 0 for a palette as Pillow
    /// leaves them), RLE runs past the row's end (clipped), palette indices past the table (black).
    func decode(_ bytes: [UInt8], into output: inout PixelBuffer) -> [String] {
        var repairs: [String] = []
        var badIndex = false
        if isRunLengthCoded {
            // Indices first (pixels the RLE data skips keep index 0, as Pillow leaves them), then colours.
            var indices = [UInt8](repeating: 0, count: width * height)
            indices.withUnsafeMutableBufferPointer { buffer in
                repairs += decodeRLE(bytes, into: buffer)
            }
            output.withUnsafeMutableRows { rows in
                colors.withUnsafeBufferPointer { table in
                    indices.withUnsafeBufferPointer { all in
                        for row in 0..<height {
                            // Stored rows run from the bottom unless the picture is top-down.
                            let out = rows.row(topDown ? row : height - 1 - row).assumingMemoryBound(to: UInt8.self)
                            for x in 0..<width {
                                let index = Int(all[row * width + x])
                                if index >= paletteCount { badIndex = true }
                                out[3 * x] = table[3 * index]
                                out[3 * x + 1] = table[3 * index + 1]
                                out[3 * x + 2] = table[3 * index + 2]
                            }
                        }
                    }
                }
            }
        } else {
            let opaque = alphaIsAllZero(bytes)
            output.withUnsafeMutableRows { rows in
                for y in 0..<height {
                    if decodeDisplayedRow(
                        y, bytes, into: rows.row(y).assumingMemoryBound(to: UInt8.self), opaque: opaque)
                    {
                        badIndex = true
                    }
                }
            }
            if let missing = missingRowsRepair(fileSize: bytes.count) { repairs.append(missing) }
            if opaque { repairs.append(Self.opaqueRepair) }
        }
        if badIndex { repairs.append(badIndexRepair()) }
        return repairs
    }

    /// One uncompressed stored row; returns whether it met a colour index past the table (drawn black).
    private func decodeRow(_ source: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>, channels: Int) -> Bool
    {
        var badIndex = false
        switch bitsPerPixel {
        case 1, 2, 4, 8:
            let perByte = 8 / bitsPerPixel, mask = (1 << bitsPerPixel) - 1, known = paletteCount
            colors.withUnsafeBufferPointer { table in
                for x in 0..<width {
                    let byte = Int(source[x / perByte]), shift = 8 - bitsPerPixel * (x % perByte + 1)
                    let index = byte >> shift & mask
                    if index >= known { badIndex = true }
                    out[3 * x] = table[3 * index]
                    out[3 * x + 1] = table[3 * index + 1]
                    out[3 * x + 2] = table[3 * index + 2]
                }
            }
        case 24:
            for x in 0..<width {
                out[3 * x] = source[3 * x + 2]
                out[3 * x + 1] = source[3 * x + 1]
                out[3 * x + 2] = source[3 * x]
            }
        default:
            let size = bitsPerPixel / 8
            for x in 0..<width {
                var pixel: UInt32 = 0
                for k in 0..<size { pixel |= UInt32(source[size * x + k]) << UInt32(8 * k) }
                for (c, field) in fields.enumerated() { out[channels * x + c] = field.value(pixel) }
            }
        }
        return badIndex
    }

    /// Runs RLE8 or RLE4 data into `indices` (`width × height`, stored row order, from the bottom row unless
    /// top-down), clipping what falls outside the picture; the work is bounded by the picture and the data, not by
    /// what the runs claim.
    private func decodeRLE(_ bytes: [UInt8], into indices: UnsafeMutableBufferPointer<UInt8>) -> [String] {
        var repairs: [String] = []
        var at = pixelOffset, x = 0, row = 0, clipped = false
        let four = compression == .rle4
        /// The part of `count` pixels from (x, row) inside the picture.
        func span(_ count: Int) -> Int {
            guard row < height, x < width else {
                clipped = clipped || count > 0
                return 0
            }
            let n = min(count, width - x)
            if n < count { clipped = true }
            return n
        }
        while true {
            guard at + 1 < bytes.count else {
                repairs.append(
                    "the RLE data ends without its end-of-bitmap mark (at row \(min(row, height)) of \(height)): the rest is colour 0"
                )
                break
            }
            let count = Int(bytes[at]), value = UInt8(bytes[at + 1])
            at += 2
            if count > 0 {
                // A run: `count` pixels of one index (RLE4: two alternating indices).
                let start = row * width + x
                for k in 0..<span(count) { indices[start + k] = four ? (k % 2 == 0 ? value >> 4 : value & 15) : value }
                x += count
                continue
            }
            switch value {
            case 0:
                x = 0
                row += 1
            case 1:
                break
            case 2:
                guard at + 1 < bytes.count else { continue }
                x += Int(bytes[at])
                row += Int(bytes[at + 1])
                at += 2
            default:
                // Absolute mode: `value` literal indices, padded to an even number of bytes.
                let literal = Int(value), length = four ? (literal + 1) / 2 : literal
                guard at + length <= bytes.count else {
                    at = bytes.count
                    continue
                }
                let start = row * width + x
                for k in 0..<span(literal) {
                    let byte = bytes[at + (four ? k / 2 : k)]
                    indices[start + k] = four ? (k % 2 == 0 ? byte >> 4 : byte & 15) : byte
                }
                x += literal
                at += length + length % 2
            }
            if count == 0 && value == 1 { break }
            if row >= height { break }
        }
        if clipped { repairs.append("RLE runs past the edge of the picture were clipped") }
        return repairs
    }
}
