import CropGeometry

/// The geometric transform properties of a HEIF or AVIF file's primary image, read by CropKit itself from the boxes
/// (`meta` → `pitm`, `iprp` → `ipco` + `ipma`): the rotation (`irot`) and mirror (`imir`) properties associated with the
/// primary item, composed in the order `ipma` lists them into one ``Orientation``, and whether a clean aperture
/// (`clap`) crop is there, with its fractions.
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
    /// Whether the primary image has a clean aperture (`clap`) crop.
    package var hasCleanAperture: Bool { cleanAperture != nil }
    /// The clean aperture's fractions (`clap`), if the primary image has one.
    package var cleanAperture: CleanAperture?
    /// Human-readable names of the transform properties, in the order applied ("irot 90°", "imir left–right").
    package var names: [String]

    /// Reads the transforms of the primary item; ``Orientation/up`` when there are none or the boxes are unreadable.
    /// - Complexity: O(bytes of the `meta` box).
    package init(_ bytes: [UInt8]) {
        orientation = .up
        cleanAperture = nil
        names = []
        let reader = ISOBoxReader(bytes: bytes)
        guard let items = reader.items() else { return }
        for property in reader.properties(of: items.primary, in: items) {
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
                // HEIF (ISO/IEC 23008-12 6.5.9) applies clap before irot and imir: it crops the stored picture.
                cleanAperture = CleanAperture(bytes, property.payload) ?? cleanAperture
                names.append("clap")
            default:
                break
            }
        }
    }
}

/// A clean aperture (`clap`, ISO/IEC 14496-12 12.1.4): the width and height kept and the offset of their centre from
/// the picture's, each a fraction (numerator, denominator).
package struct CleanAperture: Hashable, Sendable {
    package var width: (Int64, Int64)
    package var height: (Int64, Int64)
    package var horizontalOffset: (Int64, Int64)
    package var verticalOffset: (Int64, Int64)

    package static func == (a: Self, b: Self) -> Bool {
        a.width == b.width && a.height == b.height && a.horizontalOffset == b.horizontalOffset
            && a.verticalOffset == b.verticalOffset
    }

    package func hash(into hasher: inout Hasher) {
        for (n, d) in [width, height, horizontalOffset, verticalOffset] {
            hasher.combine(n)
            hasher.combine(d)
        }
    }

    package init(
        width: (Int64, Int64), height: (Int64, Int64), horizontalOffset: (Int64, Int64),
        verticalOffset: (Int64, Int64)
    ) {
        self.width = width
        self.height = height
        self.horizontalOffset = horizontalOffset
        self.verticalOffset = verticalOffset
    }

    /// Reads the box's eight 32-bit fields (widths and denominators unsigned, offsets signed); `nil` if it is short.
    init?(_ bytes: [UInt8], _ payload: Range<Int>) {
        guard payload.count >= 32 else { return nil }
        func u32(_ i: Int) -> UInt32 {
            let o = payload.lowerBound + 4 * i
            return UInt32(bytes[o]) << 24 | UInt32(bytes[o + 1]) << 16 | UInt32(bytes[o + 2]) << 8
                | UInt32(bytes[o + 3])
        }
        width = (Int64(u32(0)), Int64(u32(1)))
        height = (Int64(u32(2)), Int64(u32(3)))
        horizontalOffset = (Int64(Int32(bitPattern: u32(4))), Int64(u32(5)))
        verticalOffset = (Int64(Int32(bitPattern: u32(6))), Int64(u32(7)))
    }

    /// The window of a `pictureWidth` × `pictureHeight` picture the aperture keeps, rounded as libheif rounds it
    /// (left and top down from the centre less half the aperture, the sides to the nearest whole pixel) and clamped
    /// to the picture; `nil` when a denominator is 0, a side is not positive or nothing of the picture is left.
    package func window(pictureWidth: Int, pictureHeight: Int) -> (x: Int, y: Int, width: Int, height: Int)? {
        guard let (x, w) = Self.span(size: width, offset: horizontalOffset, picture: pictureWidth),
            let (y, h) = Self.span(size: height, offset: verticalOffset, picture: pictureHeight)
        else { return nil }
        return (x, y, w, h)
    }

    /// One axis: the first pixel kept and how many, from the aperture `size` and centre `offset` (fractions).
    private static func span(size: (Int64, Int64), offset: (Int64, Int64), picture: Int) -> (Int, Int)? {
        let (sn, sd) = size, (on, od) = offset
        guard sd > 0, od > 0, sn > 0, picture > 0 else { return nil }
        // first = floor(on/od + (picture − 1)/2 − (sn/sd − 1)/2) = floor(num / den), den = 2·od·sd. A box whose
        // fractions overflow 64 bits is no aperture anyone wrote: it is ignored.
        let products = [(od, sd), (2 * on, sd), (Int64(picture - 1), od), (sn - sd, od)].map {
            $0.0.multipliedReportingOverflow(by: $0.1)
        }
        guard products.allSatisfy({ !$0.overflow }) else { return nil }
        let odsd = products[0].partialValue
        let (den, o1) = odsd.multipliedReportingOverflow(by: 2)
        let (b, o2) = products[2].partialValue.multipliedReportingOverflow(by: sd)
        let (ab, o3) = products[1].partialValue.addingReportingOverflow(b)
        let (num, o4) = ab.subtractingReportingOverflow(products[3].partialValue)
        guard !o1, !o2, !o3, !o4 else { return nil }
        let quotient = num / den
        let first = num % den != 0 && num < 0 ? quotient - 1 : quotient
        let count = (2 * sn + sd) / (2 * sd)  // the side rounded half up
        let lower = max(0, first), upper = min(Int64(picture), first + count)
        guard upper > lower else { return nil }
        return (Int(lower), Int(upper - lower))
    }
}
