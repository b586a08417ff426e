import ArgumentParser
import CropKit

/// The options every command that writes images shares: how the output is encoded, whether it may replace a file,
/// how many threads or parallel files to use, and how much to print.
package struct CommonOptions: ParsableArguments {
    package init() {}

    @Option(help: "Output format: jpeg, png, webp, avif, heic, gif or jxl (default: from the output file's extension).")
    package var format: ImageFormat?

    @Option(help: "Quality of lossy outputs, 1–100 (default: JPEG and WebP 80, AVIF and HEIC 50, JPEG XL 75).")
    package var quality: Int?

    @Option(help: "JPEG chroma subsampling: 444, 422, 420 or auto (4:4:4 from quality 90 up, else 4:2:0).")
    package var subsampling: SubsamplingArgument = .automatic

    @Flag(help: "Write a progressive JPEG.")
    package var progressive = false

    @Flag(help: "Compute optimal JPEG Huffman tables (smaller, slower).")
    package var optimize = false

    @Option(help: "PNG zlib compression level, 0–9.")
    package var compression = 6

    @Flag(help: "Encode WebP, AVIF, HEIC or JPEG XL losslessly (for WebP, --quality then sets how hard to compress).")
    package var lossless = false

    @Option(
        help:
            "Encoder effort for a smaller file: WebP 0 (fastest) – 6, AVIF 0 – 9 (default 4), JPEG XL 1 – 9 (default 7)."
    )
    package var effort: Int?

    @Option(name: .customLong("bit-depth"), help: "Bits per sample of AVIF and HEIC outputs: 8 or 10.")
    package var bitDepth: Int?

    @Option(
        help: ArgumentHelp(
            "Frames of an animated GIF, WebP or AVIF to write: all (each through the same steps, with its delay and the loop count, when the output is GIF, WebP or AVIF; other formats get the first frame and a warning) or first.",
            valueName: "which"))
    package var frames: FrameSelection = .all

    @Option(help: "Colour profile: keep (pixels and profile as they are) or srgb (convert to sRGB, embed sRGB).")
    package var icc: ColorProfilePolicy = .keep

    @Flag(
        help:
            "Drop all metadata (EXIF and ICC profile; non-sRGB pixels are converted to sRGB first). By default both are kept, with orientation reset to 1."
    )
    package var strip = false

    @Option(
        help: ArgumentHelp(
            "Metadata to keep: keep (EXIF and ICC, orientation reset to 1), strip (as --strip), icc-copyright (the ICC profile and only the EXIF copyright notice).",
            valueName: "policy"))
    package var metadata: MetadataPolicy?

    @Flag(help: "Overwrite an existing output file, even when it is the input.")
    package var force = false

    @Flag(help: "Treat the decoder's corrupt-data warnings as errors.")
    package var strict = false

    @Option(
        help: ArgumentHelp(
            "Threads for one file, or files processed in parallel for a batch (default: all cores).", valueName: "n"))
    package var jobs: Int?

    @Flag(name: [.short, .long], help: "Print nothing but errors.")
    package var quiet = false

    /// Checks the output settings with ``SaveOptions/validate(for:)`` (against `--format` when it is given; the
    /// pipeline checks them against a format named by the output's extension), in the flags' words.
    package func validate() throws {
        do throws(CropKitError) {
            _ = try SaveOptions.metadata(strip: strip, policy: metadata)
            try saveOptions.validate(for: format)
        } catch {
            throw ValidationError(error)
        }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1, got \(jobs).") }
    }

    /// How outputs are encoded and written.
    package var saveOptions: SaveOptions {
        var options = SaveOptions(
            format: format, quality: quality, subsampling: subsampling.value, progressive: progressive,
            optimizeHuffman: optimize, pngCompressionLevel: compression, lossless: lossless, effort: effort,
            bitDepth: bitDepth, colorProfile: icc,
            metadata: (try? SaveOptions.metadata(strip: strip, policy: metadata)) ?? .strip, overwrite: force)
        options.frames = frames
        return options
    }

    /// The number of parallel jobs: `--jobs` or one per core.
    package var jobCount: Int { jobs ?? Console.coreCount }

    /// A pipeline using at most `threads` threads (0: one per core).
    package func pipeline(threads: Int) -> ImagePipeline {
        ImagePipeline(strict: strict, maxThreads: threads)
    }
}
