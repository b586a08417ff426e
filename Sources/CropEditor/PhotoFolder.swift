import CropKit
import Foundation

/// The photos `cropkit edit DIR` goes through: the regular files directly in a folder whose extension names a
/// format CropKit reads (`ImageFormat(pathExtensionOf:)`: JPEG, PNG, WebP, HEIF/HEIC, AVIF, GIF, TIFF, BMP), in the order
/// a person reads names (case aside, numbers by value: `IMG_2` before `IMG_10`).
///
/// Hidden files, sub-folders, sidecars and other files are left out. Symbolic links to photos count (the link is
/// what is listed; the photo it names is only read). Whether a listed file really is a readable picture is found
/// out when it is shown: an unreadable one stays in the strip with its error.
public enum PhotoFolder {
    /// The photos in `directory`, as paths (`directory` joined with each name).
    /// - Throws: `EditorError.invalidParameter(name:reason:)` (`folder`) when it cannot be listed.
    public static func photos(in directory: String) throws(EditorError) -> [String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw .invalidParameter(name: "folder", reason: "cannot list \(directory): \(error.localizedDescription)")
        }
        let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        return
            names
            .filter { !$0.hasPrefix(".") && ImageFormat(pathExtensionOf: $0) != nil }
            .filter { isFile(base + "/" + $0) }
            .sorted { $0.compare($1, options: [.caseInsensitive, .numeric]) == .orderedAscending }
            .map { base + "/" + $0 }
    }

    /// Whether `path` is a regular file (following a symbolic link).
    static func isFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }
}
