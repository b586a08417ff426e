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
                hasCleanAperture = true
                names.append("clap")
            default:
                break
            }
        }
    }
}
