import ArgumentParser
import CropKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What an operation wrote: a pipeline's file, or the CLI's own (a recipe).
package struct Written: Sendable {
    /// The output's size in pixels.
    package var size: PixelSize
    /// The bytes written.
    package var byteCount: Int
    /// Recoverable problems met on the way.
    package var warnings: [String]
    /// What the run decided by itself (an automatic straighten), one line each.
    package var notes: [String]
    /// The frames written: more than 1 for an animation.
    package var frames: Int

    package init(size: PixelSize, byteCount: Int, warnings: [String] = [], notes: [String] = [], frames: Int = 1) {
        self.size = size
        self.byteCount = byteCount
        self.warnings = warnings
        self.notes = notes
        self.frames = frames
    }

    /// What a pipeline run wrote; `describe` turns each warning into its one-line message.
    package init(_ file: WrittenFile, describe: (PipelineWarning) -> String? = { $0.description }) {
        let report = file.report
        var notes: [String] = []
        if let estimate = report.autoStraighten, report.autoStraightenApplied == true {
            notes.append(
                "straightened \(Console.degrees(estimate.angle)) automatically (\(estimate.evidence) agree, "
                    + "confidence \(Console.fraction(estimate.confidence)))")
        }
        if let (jpeg, jxl) = report.jpegRecompression {
            let saving = Int((100 * (1 - Double(jxl) / Double(max(jpeg, 1)))).rounded())
            notes.append(
                "recompressed the JPEG losslessly: \(jpeg) → \(jxl) bytes (\(saving)% smaller; djxl gives the "
                    + "JPEG back byte for byte)")
        }
        self.init(
            size: file.size, byteCount: file.byteCount, warnings: report.warnings.compactMap(describe), notes: notes,
            frames: report.frames)
    }
}
