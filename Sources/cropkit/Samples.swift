import Foundation

/// The sample pictures bundled with the tool (`Sources/cropkit/Samples`, copied into the resource bundle
/// `CropKit_cropkit.resources` next to the executable).
enum Samples {
    /// A real photo stored 1200×1800 with EXIF orientation 6: it displays as 1800×1200.
    static let photo = "waterfall-orientation6.jpg"
    /// A 660×315 RGBA PNG: a watercolour blot cut out on transparency.
    static let rgba = "watercolor-rgba.png"
    /// An iPhone 13 Pro HEIC: 4032×3024 in 512×512 grid tiles, Display P3.
    static let heic = "iphone-pug.heic"

    /// The folder holding the samples.
    ///
    /// Looks where SwiftPM's generated `Bundle.module` looks first (the resource bundle beside the executable), then
    /// in the source tree this binary was built from. `Bundle.module` itself is not used because it stops the
    /// program with `fatalError` when the bundle has been moved away; here that is an ordinary error.
    static func directory() throws -> String {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent("CropKit_cropkit.resources/Samples").path,
            executable.deletingLastPathComponent().appendingPathComponent("CropKit_cropkit.resources/Samples").path,
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Samples").path,
        ]
        for dir in candidates where FileManager.default.fileExists(atPath: dir + "/" + photo) {
            return dir
        }
        throw CommandError(
            "the bundled samples are missing; looked in " + candidates.joined(separator: ", "))
    }
}
