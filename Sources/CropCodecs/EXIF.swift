import CropGeometry

/// Reads and rewrites the orientation in an EXIF block (a TIFF structure: byte-order mark, IFD0, …).
///
/// Every read is bounds-checked: a malformed block gives a warning and orientation 1, never a crash or a read
/// outside the bytes. JPEG stores the block in APP1 after `Exif\0\0`; PNG stores it bare in `eXIf`; the functions
/// here take the bare TIFF bytes.
package enum EXIF {
    /// The TIFF tag number of the orientation.
    package static let orientationTag = 0x0112

    /// The identifier that starts an EXIF APP1 segment in JPEG.
    package static let jpegSegmentHeader: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]

    /// What ``readOrientation(tiff:)`` found.
    package struct OrientationReading: Hashable, Sendable {
        /// The orientation to apply: the tag's value when it is 1…8, otherwise ``Orientation/up``.
        package var orientation: Orientation
        /// The tag's raw value, or `nil` when the tag is absent or the block is malformed.
        package var rawValue: Int?
        /// Why the block or value could not be used, if it could not.
        package var warning: String?
    }

    /// Reads the orientation tag from IFD0 of a TIFF-structured EXIF block.
    ///
    /// A missing tag is orientation 1 without a warning; a malformed block or a value outside 1…8 (0 included) is
    /// orientation 1 with a warning.
    /// - Complexity: O(entries in IFD0).
    package static func readOrientation(tiff: [UInt8]) -> OrientationReading {
        let reader: TIFFReader
        let entries: [TIFFReader.Entry]
        do {
            reader = try TIFFReader(tiff)
            entries = try reader.entries(ofIFDAt: reader.ifd0Offset)
        } catch {
            return OrientationReading(orientation: .up, rawValue: nil, warning: "malformed EXIF block: \(error.reason)")
        }
        guard let entry = entries.first(where: { $0.tag == orientationTag }) else {
            return OrientationReading(orientation: .up, rawValue: nil, warning: nil)
        }
        guard let value = reader.firstIntegerValue(of: entry) else {
            return OrientationReading(
                orientation: .up, rawValue: nil,
                warning: "malformed EXIF orientation tag (type \(entry.type), count \(entry.count))")
        }
        guard let orientation = Orientation(exifValue: value) else {
            return OrientationReading(
                orientation: .up, rawValue: value,
                warning: "EXIF orientation \(value) is outside 1…8; treated as 1")
        }
        return OrientationReading(orientation: orientation, rawValue: value, warning: nil)
    }

    /// Returns the block with its orientation tag set to `orientation`, everything else kept; `nil` when the block
    /// is malformed (it cannot be rewritten safely).
    ///
    /// When IFD0 has no orientation tag and `orientation` is not ``Orientation/up``, a copy of IFD0 with the tag
    /// added is appended to the block and the header is pointed at it; all other offsets stay valid.
    /// - Complexity: O(size of the block).
    package static func settingOrientation(_ orientation: Orientation, in tiff: [UInt8]) -> [UInt8]? {
        guard let reader = try? TIFFReader(tiff),
            let entries = try? reader.entries(ofIFDAt: reader.ifd0Offset)
        else { return nil }
        var out = tiff
        let value = orientation.exifValue
        if let entry = entries.first(where: { $0.tag == orientationTag }) {
            // A well-formed tag holds one value inside the entry; anything else is not rewritten.
            guard entry.count == 1 else { return nil }
            switch entry.type {
            case TIFFReader.typeShort:
                guard let at = reader.valuePosition(of: entry, elementSize: 2) else { return nil }
                reader.store16(value, at: at, in: &out)
            case TIFFReader.typeLong:
                guard let at = reader.valuePosition(of: entry, elementSize: 4) else { return nil }
                reader.store32(value, at: at, in: &out)
            default:
                return nil
            }
            return readOrientation(tiff: out).orientation == orientation ? out : nil
        }
        if orientation == .up { return out }
        // Append a copy of IFD0 with the tag inserted in tag order, then point the header at the copy.
        if out.count % 2 == 1 { out.append(0) }
        let newOffset = out.count
        guard newOffset + 2 + 12 * (entries.count + 1) + 4 <= Int(UInt32.max), entries.count < 0xFFFF else {
            return nil
        }
        let next = reader.u32(at: reader.ifd0Offset + 2 + 12 * entries.count) ?? 0
        var newEntry = [UInt8](repeating: 0, count: 12)
        reader.store16(orientationTag, at: 0, in: &newEntry)
        reader.store16(TIFFReader.typeShort, at: 2, in: &newEntry)
        reader.store32(1, at: 4, in: &newEntry)
        reader.store16(value, at: 8, in: &newEntry)
        var ifd = [UInt8](repeating: 0, count: 2)
        reader.store16(entries.count + 1, at: 0, in: &ifd)
        var inserted = false
        for entry in entries {
            if !inserted && entry.tag > orientationTag {
                ifd += newEntry
                inserted = true
            }
            ifd += tiff[entry.position..<entry.position + 12]
        }
        if !inserted { ifd += newEntry }
        var tail = [UInt8](repeating: 0, count: 4)
        reader.store32(next, at: 0, in: &tail)
        out += ifd + tail
        reader.store32(newOffset, at: 4, in: &out)
        return out
    }

    /// A minimal big-endian block holding only an orientation tag.
    package static func minimalBlock(orientation: Orientation) -> [UInt8] {
        let v = UInt8(orientation.exifValue)
        return [
            0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08,  // "MM", 42, IFD0 at 8
            0x00, 0x01,  // one entry
            0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, v, 0x00, 0x00,  // orientation, SHORT, 1
            0x00, 0x00, 0x00, 0x00,
        ]  // no next IFD
    }

    /// The TIFF tag number of the copyright notice (ASCII, in IFD0).
    package static let copyrightTag = 0x8298

    /// The copyright notice's bytes from IFD0 (ASCII, without the trailing NULs), or `nil` when the block is malformed
    /// or has none.
    /// - Complexity: O(entries in IFD0 + the notice's length).
    package static func readCopyright(tiff: [UInt8]) -> [UInt8]? {
        guard let reader = try? TIFFReader(tiff), let entries = try? reader.entries(ofIFDAt: reader.ifd0Offset),
            let entry = entries.first(where: { $0.tag == copyrightTag }), entry.type == TIFFReader.typeASCII,
            entry.count > 0, let start = reader.valuePosition(of: entry, elementSize: 1)
        else { return nil }
        var notice = Array(tiff[start..<start + entry.count])
        while notice.last == 0 { notice.removeLast() }
        return notice.isEmpty ? nil : notice
    }

    /// A minimal big-endian block holding only a copyright notice (ASCII, NUL-terminated). An orientation is added
    /// on encode like any block's (``settingOrientation(_:in:)``).
    package static func copyrightBlock(_ notice: [UInt8]) -> [UInt8] {
        let text = notice + [0]
        func be32(_ v: Int) -> [UInt8] {
            [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
        }
        // Header, one entry (Copyright, ASCII), no next IFD; a text longer than 4 bytes follows at offset 26.
        var block: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08, 0x00, 0x01]
        block += [0x82, 0x98, 0x00, 0x02] + be32(text.count)
        block += text.count <= 4 ? text + [UInt8](repeating: 0, count: 4 - text.count) : be32(26)
        block += [0, 0, 0, 0]
        if text.count > 4 { block += text }
        return block
    }

    /// The TIFF bytes of a JPEG APP1 segment's payload when it is an EXIF segment (`Exif\0\0` + TIFF), else `nil`.
    package static func tiffBytes(fromAPP1 payload: [UInt8]) -> [UInt8]? {
        guard payload.count > jpegSegmentHeader.count, payload.starts(with: jpegSegmentHeader.prefix(5)) else {
            return nil
        }
        return Array(payload[jpegSegmentHeader.count...])
    }
}

/// A bounds-checked view of a TIFF structure.
struct TIFFReader {
    struct Failure: Error {
        let reason: String
    }

    /// One 12-byte IFD entry; `position` is the offset of the entry itself.
    struct Entry {
        let tag: Int
        let type: Int
        let count: Int
        let position: Int
    }

    static let typeASCII = 2
    static let typeShort = 3
    static let typeLong = 4

    let bytes: [UInt8]
    let bigEndian: Bool
    /// Where IFD0 starts (within the block, checked).
    private(set) var ifd0Offset = 0

    init(_ bytes: [UInt8]) throws(Failure) {
        guard bytes.count >= 8 else { throw Failure(reason: "\(bytes.count) bytes, shorter than a TIFF header") }
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: throw Failure(reason: "no TIFF byte-order mark (II or MM)")
        }
        self.bytes = bytes
        guard let magic = u16(at: 2), magic == 42 else { throw Failure(reason: "TIFF magic number is not 42") }
        guard let offset = u32(at: 4), offset >= 8, offset < bytes.count else {
            throw Failure(reason: "IFD0 offset points outside the \(bytes.count)-byte block")
        }
        ifd0Offset = offset
    }

    func u16(at offset: Int) -> Int? {
        guard offset >= 0, offset <= bytes.count - 2 else { return nil }
        let a = Int(bytes[offset]), b = Int(bytes[offset + 1])
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    func u32(at offset: Int) -> Int? {
        guard offset >= 0, offset <= bytes.count - 4 else { return nil }
        let b = (0..<4).map { Int(bytes[offset + $0]) }
        return bigEndian ? b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3] : b[3] << 24 | b[2] << 16 | b[1] << 8 | b[0]
    }

    func store16(_ value: Int, at offset: Int, in out: inout [UInt8]) {
        let hi = UInt8((value >> 8) & 0xFF), lo = UInt8(value & 0xFF)
        out[offset] = bigEndian ? hi : lo
        out[offset + 1] = bigEndian ? lo : hi
    }

    func store32(_ value: Int, at offset: Int, in out: inout [UInt8]) {
        for i in 0..<4 {
            let shift = bigEndian ? (3 - i) * 8 : i * 8
            out[offset + i] = UInt8((value >> shift) & 0xFF)
        }
    }

    /// The entries of the IFD at `offset`, all within the block.
    func entries(ofIFDAt offset: Int) throws(Failure) -> [Entry] {
        guard let count = u16(at: offset) else { throw Failure(reason: "IFD at \(offset) is outside the block") }
        guard count <= (bytes.count - offset - 2) / 12 else {
            throw Failure(reason: "IFD at \(offset) claims \(count) entries, more than the block holds")
        }
        return (0..<count).map { i in
            let p = offset + 2 + 12 * i
            return Entry(tag: u16(at: p)!, type: u16(at: p + 2)!, count: u32(at: p + 4)!, position: p)
        }
    }

    /// Where the first value of `entry` is stored: inside the entry when all values fit in 4 bytes, else at the
    /// offset the entry gives (checked against the block, never inside the 8-byte header).
    func valuePosition(of entry: Entry, elementSize: Int) -> Int? {
        let (total, overflow) = entry.count.multipliedReportingOverflow(by: elementSize)
        guard !overflow else { return nil }
        if total <= 4 { return entry.position + 8 }
        guard let offset = u32(at: entry.position + 8), offset >= 8, offset <= bytes.count - total else { return nil }
        return offset
    }

    /// The value of a SHORT or LONG entry holding exactly one value.
    func firstIntegerValue(of entry: Entry) -> Int? {
        guard entry.count == 1 else { return nil }
        switch entry.type {
        case Self.typeShort: return valuePosition(of: entry, elementSize: 2).flatMap { u16(at: $0) }
        case Self.typeLong: return valuePosition(of: entry, elementSize: 4).flatMap { u32(at: $0) }
        default: return nil
        }
    }
}
