import CropGeometry

/// The geometric transform properties of a HEIF or AVIF file's primary image, read by CropKit itself from the boxes
/// (`meta` → `pitm`, `iprp` → `ipco` + `ipma`): the rotation (`irot`) and mirror (`imir`) properties associated with the
/// primary item, composed in the order `ipma` lists them into one ``Orientation``, and whether a clean aperture
/// (`clap`) crop is there.
///
/// CropKit has libheif decode the stored pixels without transforms and applies ``orientation`` itself, exactly once,
/// through the same orientation machinery as EXIF: libheif 1.15 applies `irot`/`imir` to HEIC but not to AVIF, and
/// libvips fails on those files, so the transforms are not left to the library.
///
/// Reading is bounds-checked and total: malformed boxes give ``Orientation/up`` (the properties are then absent), never
/// a crash or a read outside the bytes.
package struct HEIFTransforms: Hashable, Sendable {
    /// How the stored pixels are displayed.
    package var orientation: Orientation
    /// Whether the primary image has a clean aperture (`clap`) crop, which CropKit does not apply.
    package var hasCleanAperture: Bool
    /// Human-readable names of the transform properties, in the order applied ("irot 90°", "imir left–right").
    package var names: [String]

    /// Reads the transforms of the primary item; ``Orientation/up`` when there are none or the boxes are unreadable.
    /// - Complexity: O(bytes of the `meta` box).
    package init(_ bytes: [UInt8]) {
        orientation = .up
        hasCleanAperture = false
        names = []
        let reader = BoxReader(bytes: bytes)
        guard let meta = reader.children(of: 0..<bytes.count).first(where: { $0.type == "meta" }) else { return }
        let metaChildren = reader.children(of: meta.payload.dropFirst(4))  // FullBox: version, flags
        guard let pitm = metaChildren.first(where: { $0.type == "pitm" }),
            let primary = reader.itemID(pitm.payload),
            let iprp = metaChildren.first(where: { $0.type == "iprp" })
        else { return }
        let iprpChildren = reader.children(of: iprp.payload)
        guard let ipco = iprpChildren.first(where: { $0.type == "ipco" }) else { return }
        let properties = reader.children(of: ipco.payload)
        for ipma in iprpChildren where ipma.type == "ipma" {
            for index in reader.associations(ipma.payload, item: primary) where index >= 1 && index <= properties.count {
                let property = properties[index - 1]
                guard let first = property.payload.first.map({ bytes[$0] }) else { continue }
                switch property.type {
                case "irot":
                    let turns = Int(first & 3)  // anticlockwise quarter turns
                    for _ in 0..<turns { orientation = orientation.rotatedCounterClockwise() }
                    names.append("irot \(turns * 90)°")
                case "imir":
                    // ISO/IEC 23008-12:2022 6.5.12: axis 0 exchanges top and bottom, 1 exchanges left and right
                    // (as cavif's and libavif's `--mirror vertical|horizontal` write them).
                    if first & 1 == 1 {
                        orientation = orientation.flippedHorizontally()
                        names.append("imir left–right")
                    } else {
                        orientation = orientation.flippedVertically()
                        names.append("imir top–bottom")
                    }
                case "clap":
                    hasCleanAperture = true
                    names.append("clap")
                default:
                    break
                }
            }
        }
    }
}

/// Bounds-checked reading of ISO base media boxes.
private struct BoxReader {
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
        guard let version = u8(payload.lowerBound), let flags = u32(payload.lowerBound).map({ $0 & 0xFF_FFFF }),
            let count = u32(payload.lowerBound + 4)
        else { return [] }
        var offset = payload.lowerBound + 8
        for _ in 0..<min(count, 65_536) {
            let idSize = version < 1 ? 2 : 4
            guard offset + idSize + 1 <= payload.upperBound,
                let id = idSize == 2 ? u16(offset) : u32(offset), let n = u8(offset + idSize)
            else { return [] }
            offset += idSize + 1
            let wide = flags & 1 == 1
            var indices: [Int] = []
            for _ in 0..<n {
                guard offset + (wide ? 2 : 1) <= payload.upperBound,
                    let value = wide ? u16(offset) : u8(offset)
                else { return [] }
                indices.append(wide ? value & 0x7FFF : value & 0x7F)
                offset += wide ? 2 : 1
            }
            if id == item { return indices }
        }
        return []
    }
}
