/// Just enough of an AV1 sequence header (AV1 bitstream specification 5.5) to learn its `color_range`: whether the
/// samples use the full range (0…255 at 8 bits) or the limited "studio" range (16…235). An AVIF alpha plane coded in
/// limited range must be expanded, as libavif and Pillow do; libheif 1.15 leaves it (an opaque pixel reads 235).
///
/// Reading is bounds-checked and total: anything short, malformed or not a sequence header gives `nil`.
enum AV1SequenceHeader {
    /// `color_range` of the first sequence header OBU in `configOBUs` (an `av1C` box's tail): `true` for full range,
    /// `false` for limited, `nil` when there is none or it cannot be read.
    static func colorRangeIsFull(configOBUs bytes: [UInt8]) -> Bool? {
        var offset = 0
        while offset < bytes.count {
            let header = bytes[offset]
            let type = Int(header >> 3 & 0x0F), hasExtension = header & 0x04 != 0, hasSize = header & 0x02 != 0
            offset += hasExtension ? 2 : 1
            var size = bytes.count - offset
            if hasSize {
                guard let (value, length) = leb128(bytes, at: offset) else { return nil }
                offset += length
                size = value
            }
            guard size >= 0, size <= bytes.count - offset else { return nil }
            if type == 1 {
                var reader = BitReader(bytes: Array(bytes[offset..<(offset + size)]))
                return colorRange(&reader)
            }
            offset += size
        }
        return nil
    }

    private static func leb128(_ bytes: [UInt8], at start: Int) -> (Int, Int)? {
        var value = 0
        for i in 0..<8 {
            guard start + i < bytes.count else { return nil }
            let byte = Int(bytes[start + i])
            value |= (byte & 0x7F) << (7 * i)
            if byte & 0x80 == 0 { return (value, i + 1) }
        }
        return nil
    }

    /// Reads sequence_header_obu() up to color_config()'s color_range.
    private static func colorRange(_ r: inout BitReader) -> Bool? {
        guard let profile = r.bits(3), r.bits(1) != nil, let reduced = r.bits(1) else { return nil }
        if reduced == 1 {
            guard r.bits(5) != nil else { return nil }
        } else {
            guard let timing = r.bits(1) else { return nil }
            var decoderModel = 0, bufferDelayLength = 0
            if timing == 1 {
                guard r.bits(32) != nil, r.bits(32) != nil, let equal = r.bits(1) else { return nil }
                if equal == 1 { guard r.uvlc() != nil else { return nil } }
                guard let present = r.bits(1) else { return nil }
                decoderModel = present
                if present == 1 {
                    guard let delay = r.bits(5), r.bits(32) != nil, r.bits(5) != nil, r.bits(5) != nil else {
                        return nil
                    }
                    bufferDelayLength = delay + 1
                }
            }
            guard let initialDisplayDelay = r.bits(1), let points = r.bits(5) else { return nil }
            for _ in 0...points {
                guard r.bits(12) != nil, let level = r.bits(5) else { return nil }
                if level > 7 { guard r.bits(1) != nil else { return nil } }
                if decoderModel == 1 {
                    guard let present = r.bits(1) else { return nil }
                    if present == 1 {
                        guard r.bits(bufferDelayLength) != nil, r.bits(bufferDelayLength) != nil, r.bits(1) != nil
                        else { return nil }
                    }
                }
                if initialDisplayDelay == 1 {
                    guard let present = r.bits(1) else { return nil }
                    if present == 1 { guard r.bits(4) != nil else { return nil } }
                }
            }
        }
        guard let widthBits = r.bits(4), let heightBits = r.bits(4), r.bits(widthBits + 1) != nil,
            r.bits(heightBits + 1) != nil
        else { return nil }
        if reduced == 0 {
            guard let frameIDs = r.bits(1) else { return nil }
            if frameIDs == 1 { guard r.bits(4) != nil, r.bits(3) != nil else { return nil } }
        }
        guard r.bits(3) != nil else { return nil }  // 128×128 superblocks, filter intra, intra edge filter
        if reduced == 0 {
            guard r.bits(4) != nil, let orderHint = r.bits(1) else { return nil }  // interintra … dual filter
            if orderHint == 1 { guard r.bits(2) != nil else { return nil } }
            guard let chooseTools = r.bits(1) else { return nil }
            var forceTools = 2
            if chooseTools == 0 {
                guard let force = r.bits(1) else { return nil }
                forceTools = force
            }
            if forceTools > 0 {
                guard let chooseMV = r.bits(1) else { return nil }
                if chooseMV == 0 { guard r.bits(1) != nil else { return nil } }
            }
            if orderHint == 1 { guard r.bits(3) != nil else { return nil } }
        }
        guard r.bits(3) != nil else { return nil }  // superres, cdef, restoration
        // color_config()
        guard let high = r.bits(1) else { return nil }
        if profile == 2 && high == 1 { guard r.bits(1) != nil else { return nil } }
        var mono = 0
        if profile != 1 {
            guard let m = r.bits(1) else { return nil }
            mono = m
        }
        guard let described = r.bits(1) else { return nil }
        var primaries = 2, transfer = 2, matrix = 2
        if described == 1 {
            guard let p = r.bits(8), let t = r.bits(8), let m = r.bits(8) else { return nil }
            (primaries, transfer, matrix) = (p, t, m)
        }
        if mono == 0 && primaries == 1 && transfer == 13 && matrix == 0 { return true }  // sRGB identity: full
        guard let range = r.bits(1) else { return nil }
        return range == 1
    }
}

/// Most-significant-bit-first reading of a byte array; every read past the end gives `nil`.
struct BitReader {
    let bytes: [UInt8]
    private var position = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The next `count` bits (0…32) as a number.
    mutating func bits(_ count: Int) -> Int? {
        guard count >= 0, count <= 32, position + count <= bytes.count * 8 else { return nil }
        var value = 0
        for _ in 0..<count {
            value = value << 1 | Int(bytes[position >> 3] >> (7 - UInt8(position & 7)) & 1)
            position += 1
        }
        return value
    }

    /// An unsigned exponential-Golomb-like `uvlc()` value (AV1 4.10.3).
    mutating func uvlc() -> Int? {
        var zeros = 0
        while true {
            guard let bit = bits(1) else { return nil }
            if bit == 1 { break }
            zeros += 1
            if zeros >= 32 { return (1 << 32) - 1 }
        }
        guard let value = bits(zeros) else { return nil }
        return value + (1 << zeros) - 1
    }
}
