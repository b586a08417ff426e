import ArgumentParser
import CropCodecs
import CropKit

/// `cropkit info FILE… [--json]`: header facts of image files, without decoding pixels.
package struct InfoCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show format, size, orientation and colour facts of images without decoding their pixels.",
        discussion: """
            Prints one line per file: format, stored size, EXIF orientation, displayed size, channels, bit depth, \
            alpha, ICC profile, and whether a JPEG is progressive or a PNG interlaced. Only headers and metadata \
            are read, so it is fast on big files. A file that cannot be read gets an error line on standard error; \
            the others are still reported, and the exit status is 1.

            Examples:
              cropkit info photo.jpg
              cropkit info *.jpg *.png
              cropkit info --json photo.jpg logo.png > info.json
            """)

    @Argument(help: "Image files: JPEG, PNG, WebP, HEIC/HEIF, AVIF, GIF, TIFF, BMP, JPEG XL or JPEG 2000.")
    package var files: [String]

    @Flag(help: "Print a JSON array instead of one line per file.")
    package var json = false

    @Flag(help: "Treat codec warnings in a header as errors.")
    package var strict = false

    package func validate() throws {
        if files.isEmpty { throw ValidationError("Give at least one image file.") }
    }

    /// Reads every file's header (no pixel decoding); a file that fails is named on standard error and the others
    /// are still reported.
    package func run() throws {
        var entries: [(path: String, info: ImageInfo)] = []
        var failed = false
        for path in files {
            do {
                entries.append((path, try ImageInfo.read(fileAtPath: path, strict: strict)))
            } catch {
                printError("cropkit info: \(path): \(error)")
                failed = true
            }
        }
        if json {
            print(ImageInfo.json(entries))
        } else {
            for (path, info) in entries { print("\(path): \(info.summary)") }
        }
        if failed { throw ExitCode.failure }
    }
}
