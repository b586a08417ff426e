/// Bounds-checked reading of ISO base media boxes (HEIF, AVIF): every read past the bytes gives `nil` or nothing.
struct ISOBoxReader {
    struct Box {
        var type: String
        var payload: Range<Int>
    }

    let bytes: [UInt8]

    func u8(_ offset: Int) -> Int? { offset >= 0 && offset < bytes.count ? Int(bytes[offset]) : nil }

    func u16(_ offset: Int) -> Int? {
        guard let a = u8(offset), let b = u8(offset + 1) else { return nil }
        return a << 8 | b
    }

    func u32(_ offset: Int) -> Int? {
        guard let a = u16(offset), let b = u16(offset + 2) else { return nil }
        return a << 16 | b
    }

    /// The boxes laid end to end in `range` (at most 4096; stops at the first one that does not fit).
    func children(of range: Range<Int>) -> [Box] {
        var boxes: [Box] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound, boxes.count < 4096, let size32 = u32(offset) {
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            var header = 8
            var size = size32
            if size32 == 1 {
                guard offset + 16 <= range.upperBound, let high = u32(offset + 8), let low = u32(offset + 12),
                    high == 0
                else { break }
                size = low
                header = 16
            } else if size32 == 0 {
                size = range.upperBound - offset
            }
            guard size >= header, size <= range.upperBound - offset else { break }
            boxes.append(Box(type: type, payload: (offset + header)..<(offset + size)))
            offset += size
        }
        return boxes
    }

    /// What the file's `meta` box says about its items.
    struct Items {
        /// The primary item's ID (`pitm`).
        var primary: Int
        /// The properties in `ipco`, numbered from 1 by `ipma`.
        var properties: [Box]
        /// The `ipma` boxes.
        var associations: [Box]
    }

    /// The items of the file's `meta` box; `nil` when the primary item or the properties are missing or unreadable.
    func items() -> Items? {
        guard let meta = children(of: 0..<bytes.count).first(where: { $0.type == "meta" }) else { return nil }
        let metaChildren = children(of: meta.payload.dropFirst(4))  // FullBox: version, flags
        guard let pitm = metaChildren.first(where: { $0.type == "pitm" }), let primary = itemID(pitm.payload),
            let iprp = metaChildren.first(where: { $0.type == "iprp" })
        else { return nil }
        let iprpChildren = children(of: iprp.payload)
        guard let ipco = iprpChildren.first(where: { $0.type == "ipco" }) else { return nil }
        return Items(
            primary: primary, properties: children(of: ipco.payload),
            associations: iprpChildren.filter { $0.type == "ipma" })
    }

    /// The primary item's type (`iinf`'s `infe` entry for the `pitm` item: `hvc1`, `av01`, `grid`, `unci`, `jpeg` …),
    /// or `nil` when the boxes do not say.
    func primaryItemType() -> String? {
        guard let meta = children(of: 0..<bytes.count).first(where: { $0.type == "meta" }) else { return nil }
        let metaChildren = children(of: meta.payload.dropFirst(4))
        guard let pitm = metaChildren.first(where: { $0.type == "pitm" }), let primary = itemID(pitm.payload),
            let iinf = metaChildren.first(where: { $0.type == "iinf" }), let version = u8(iinf.payload.lowerBound)
        else { return nil }
        // iinf: FullBox, then an entry count (16 bits in version 0, 32 after), then the infe boxes.
        let entries = iinf.payload.lowerBound + 4 + (version == 0 ? 2 : 4)
        guard entries <= iinf.payload.upperBound else { return nil }
        for infe in children(of: entries..<iinf.payload.upperBound) where infe.type == "infe" {
            // infe version 2 or 3: FullBox, item_ID (16 or 32 bits), protection index (16), item_type (4 bytes).
            guard let infeVersion = u8(infe.payload.lowerBound), infeVersion >= 2 else { continue }
            let idAt = infe.payload.lowerBound + 4
            let idSize = infeVersion == 2 ? 2 : 4
            guard let id = idSize == 2 ? u16(idAt) : u32(idAt), id == primary else { continue }
            let typeAt = idAt + idSize + 2
            guard typeAt + 4 <= infe.payload.upperBound else { return nil }
            return String(decoding: bytes[typeAt..<(typeAt + 4)], as: UTF8.self)
        }
        return nil
    }

    /// The properties `ipma` associates with `item`, in order.
    func properties(of item: Int, in items: Items) -> [Box] {
        items.associations.flatMap { ipma in
            associations(ipma.payload, item: item).compactMap { index in
                index >= 1 && index <= items.properties.count ? items.properties[index - 1] : nil
            }
        }
    }

    /// The item ID in a `pitm` FullBox.
    func itemID(_ payload: Range<Int>) -> Int? {
        guard let version = u8(payload.lowerBound) else { return nil }
        let at = payload.lowerBound + 4
        let id = version == 0 ? u16(at) : u32(at)
        guard let id, at + (version == 0 ? 2 : 4) <= payload.upperBound else { return nil }
        return id
    }

    /// The 1-based property indices `ipma` associates with `item`, in order.
    func associations(_ payload: Range<Int>, item: Int) -> [Int] {
        allAssociations(payload).first(where: { $0.item == item })?.properties ?? []
    }

    /// Every item `ipma` lists, with the 1-based property indices it associates, in order (at most 65,536 items; a
    /// box that runs out gives what was read before it).
    func allAssociations(_ payload: Range<Int>) -> [(item: Int, properties: [Int])] {
        guard let version = u8(payload.lowerBound), let flags = u32(payload.lowerBound).map({ $0 & 0xFF_FFFF }),
            let count = u32(payload.lowerBound + 4)
        else { return [] }
        var offset = payload.lowerBound + 8
        var result: [(item: Int, properties: [Int])] = []
        for _ in 0..<min(count, 65_536) {
            let idSize = version < 1 ? 2 : 4
            guard offset + idSize + 1 <= payload.upperBound,
                let id = idSize == 2 ? u16(offset) : u32(offset), let n = u8(offset + idSize)
            else { return result }
            offset += idSize + 1
            let wide = flags & 1 == 1
            var indices: [Int] = []
            for _ in 0..<n {
                guard offset + (wide ? 2 : 1) <= payload.upperBound,
                    let value = wide ? u16(offset) : u8(offset)
                else { return result }
                indices.append(wide ? value & 0x7FFF : value & 0x7F)
                offset += wide ? 2 : 1
            }
            result.append((id, indices))
        }
        return result
    }

    /// A copy of `bytes` in which a top-level box of size 0 (it runs to the end of the file) has its size written out,
    /// or `nil` when no box needs it (or the file is too large for a 32-bit size).
    static func closingOpenEndedBox(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var at = 0
        for _ in 0..<64 where at + 8 <= bytes.count {
            let size = Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            if size == 0 {
                let length = bytes.count - at
                guard length <= Int(UInt32.max) else { return nil }
                var closed = Array(bytes)
                for i in 0..<4 { closed[at + i] = UInt8(truncatingIfNeeded: length >> (24 - 8 * i)) }
                return closed
            }
            if size == 1 {
                guard at + 16 <= bytes.count else { return nil }
                let large = (0..<8).reduce(0) { $0 << 8 | Int(bytes[at + 8 + $1]) }
                guard large >= 16, large <= bytes.count - at else { return nil }
                at += large
            } else {
                guard size >= 8 else { return nil }
                at += size
            }
        }
        return nil
    }

    /// A copy of the file in which the `meta` box's entity groups (`grpl`: a pyramid of resolutions, a burst, a
    /// stereo pair) become `free` boxes of the same size, or `nil` when it has none. libheif 1.15 refuses a file with a
    /// group it does not know ("No 'meta' box" for libavif's pyramid_pymd.avif); the primary image, which is what
    /// CropKit shows, does not depend on them.
    func withoutEntityGroups() -> [UInt8]? {
        guard let meta = children(of: 0..<bytes.count).first(where: { $0.type == "meta" }) else { return nil }
        // `meta` is a full box: its children follow 4 bytes of version and flags.
        let groups = children(of: (meta.payload.lowerBound + 4)..<meta.payload.upperBound).filter { $0.type == "grpl" }
        guard !groups.isEmpty else { return nil }
        var copy = bytes
        for group in groups {
            // The type is the 4 bytes before the payload, or before a 64-bit size.
            let name = Array("grpl".utf8)
            guard
                let type = [group.payload.lowerBound - 4, group.payload.lowerBound - 12]
                    .first(where: { $0 >= 0 && Array(bytes[$0..<($0 + 4)]) == name })
            else { return nil }
            copy.replaceSubrange(type..<(type + 4), with: Array("free".utf8))
        }
        return copy
    }

    /// The properties of the file's alpha auxiliary image (an item other than the primary whose `auxC` names alpha),
    /// or `nil` when it has none.
    func alphaItemProperties() -> [Box]? {
        guard let items = items() else { return nil }
        for ipma in items.associations {
            for (item, indices) in allAssociations(ipma.payload) where item != items.primary {
                let properties = indices.compactMap {
                    $0 >= 1 && $0 <= items.properties.count ? items.properties[$0 - 1] : nil
                }
                if let auxC = properties.first(where: { $0.type == "auxC" }), auxC.payload.count > 4,
                    String(decoding: bytes[(auxC.payload.lowerBound + 4)..<auxC.payload.upperBound], as: UTF8.self)
                        .contains("alpha")
                {
                    return properties
                }
            }
        }
        return nil
    }

    /// Whether the file's alpha auxiliary image is coded in limited range, as its AV1 sequence header (in `av1C`'s
    /// configOBUs) or its `colr` nclx box says; `nil` when there is no such item or neither says.
    func alphaIsLimitedRange() -> Bool? {
        guard let properties = alphaItemProperties() else { return nil }
        // colr nclx: type, primaries, transfer, matrix (16 bits each after the type), then full_range_flag.
        if let colr = properties.first(where: { $0.type == "colr" }), colr.payload.count >= 11,
            String(decoding: bytes[colr.payload.lowerBound..<(colr.payload.lowerBound + 4)], as: UTF8.self) == "nclx",
            let flag = u8(colr.payload.lowerBound + 10)
        {
            return flag & 0x80 == 0
        }
        if let av1C = properties.first(where: { $0.type == "av1C" }), av1C.payload.count > 4 {
            let obus = Array(bytes[(av1C.payload.lowerBound + 4)..<av1C.payload.upperBound])
            if let full = AV1SequenceHeader.colorRangeIsFull(configOBUs: obus) { return !full }
        }
        return nil
    }
}
