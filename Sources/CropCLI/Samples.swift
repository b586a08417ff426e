import CropKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The sample pictures bundled with the tool (`Sources/CropSamples/Samples`, copied into the resource bundle
/// `CropKit_CropSamples.resources` next to the executables; a C target's, see Package.swift).
package enum Samples {
    /// A real photo stored 1200×1800 with EXIF orientation 6: it displays as 1800×1200.
    package static let photo = "waterfall-orientation6.jpg"
    /// A 660×315 RGBA PNG: a watercolour blot cut out on transparency.
    package static let rgba = "watercolor-rgba.png"
    /// An iPhone 13 Pro HEIC: 4032×3024 in 512×512 grid tiles, Display P3.
    package static let heic = "iphone-pug.heic"

    /// The folder holding the samples (`ResourceBundle`: the Linux and Apple bundle layouts, an installed
    /// `share/cropkit`, then the source tree this binary was built from).
    package static func directory() throws -> String {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../CropSamples/Samples").standardized.path
        if let dir = ResourceBundle.directory(
            target: "CropSamples", subfolder: "Samples", marker: photo, source: source)
        {
            return dir
        }
        let candidates = ResourceBundle.candidates(
            package: "CropKit", target: "CropSamples", subfolder: "Samples", source: source)
        throw CommandError("the bundled samples are missing; looked in " + candidates.joined(separator: ", "))
    }
}
