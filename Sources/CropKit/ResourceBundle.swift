#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Finds a target's resources wherever SwiftPM or an installer put them, the one way every face does.
///
/// SwiftPM's generated `Bundle.module` stops the program with `fatalError` when the bundle has been moved away; a
/// missing resource here is `nil`, which the caller turns into an ordinary error naming what is missing. The places
/// looked in, in order, each tried beside the running program and beside the bundle's main executable:
/// - `PACKAGE_TARGET.resources/` (SwiftPM on Linux);
/// - `PACKAGE_TARGET.bundle/` and `PACKAGE_TARGET.bundle/Contents/Resources/` (SwiftPM and Xcode on Apple platforms);
/// - `../share/cropkit/PACKAGE_TARGET.resources/` (the Debian package and the release tarball: the binary in `bin/`,
///   its resources in `share/cropkit/`);
/// - last, the source tree the binary was built from (`source`), for a binary run from a build folder that was
///   cleaned of its bundles.
package enum ResourceBundle {
    /// The folder holding `subfolder` of target `target`'s resources (of package `package`), recognised by containing
    /// `marker`; `nil` when no place has it.
    package static func directory(
        package: String = "CropKit", target: String, subfolder: String, marker: String, source: String
    ) -> String? {
        candidates(package: package, target: target, subfolder: subfolder, source: source).first {
            FileManager.default.fileExists(atPath: $0 + "/" + marker)
        }
    }

    /// The folder of the running program's file, symbolic links resolved (`/proc/self/exe`'s); `nil` where the
    /// system does not show it.
    package static var programFolder: URL? {
        guard FileManager.default.fileExists(atPath: "/proc/self/exe") else { return nil }
        return URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// Every place ``directory(package:target:subfolder:marker:source:)`` looks, in order.
    package static func candidates(package: String, target: String, subfolder: String, source: String) -> [String] {
        let name = "\(package)_\(target)"
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
            .deletingLastPathComponent()
        #if canImport(FoundationEssentials)
            // What `Bundle.main.bundleURL` is on Linux.
            let main = programFolder
        #else
            let main: URL? = Bundle.main.bundleURL
        #endif
        var places: [URL] = []
        for base in [executable] + (main.map { [$0] } ?? []) {
            places += [
                base.appendingPathComponent("\(name).resources"),
                base.appendingPathComponent("\(name).bundle"),
                base.appendingPathComponent("\(name).bundle/Contents/Resources"),
                base.appendingPathComponent("../share/cropkit/\(name).resources"),
            ]
        }
        var seen = Set<String>()
        let paths = places.map { $0.appendingPathComponent(subfolder).standardized.path } + [source]
        return paths.filter { seen.insert($0).inserted }
    }
}
