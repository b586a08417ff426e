import ArgumentParser
import CropKit
import Foundation

/// What an operation wrote: a pipeline's file, or the CLI's own (a recipe).
struct Written: Sendable {
    /// The output's size in pixels.
    var size: PixelSize
    /// The bytes written.
    var byteCount: Int
    /// Recoverable problems met on the way.
    var warnings: [String]

    init(size: PixelSize, byteCount: Int, warnings: [String] = []) {
        self.size = size
        self.byteCount = byteCount
        self.warnings = warnings
    }

    /// What a pipeline run wrote; `describe` turns each warning into its one-line message.
    init(_ file: WrittenFile, describe: (PipelineWarning) -> String? = { $0.description }) {
        self.init(size: file.size, byteCount: file.byteCount, warnings: file.report.warnings.compactMap(describe))
    }
}
