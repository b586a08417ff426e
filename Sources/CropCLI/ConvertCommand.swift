import ArgumentParser
import CropCodecs
import CropKit

/// `cropkit convert IN -o OUT`: decode and re-encode, streaming rows.
package struct ConvertCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract:
            "Re-encode an image as JPEG, PNG, WebP, HEIC, AVIF, GIF (every frame of an animation) or JPEG XL, streaming rows where the formats allow.",
        discussion: """
            The output format comes from the output file's extension (.jpg, .jpeg, .png) unless --format is given. \
            Metadata (EXIF orientation, ICC profile) is kept; the pixels are not rotated. --strip drops all of it, \
            orientation included. The output is written atomically (temporary file, fsync, rename); an existing \
            output is an error unless --force is given. --jobs has no effect: conversion streams on one thread. A \
            JPEG written as JPEG XL (.jxl) without --quality, --scale, --strip, --metadata or --icc is recompressed \
            losslessly: its DCT coefficients are kept, the file is about a fifth smaller (24% on a 24 MP camera photo), and djxl gives the JPEG \
            back byte for byte; the saving is printed.

            Examples:
              cropkit convert photo.jpg -o photo-q80.jpg --quality 80
              cropkit convert photo.jpg -o photo.png
              cropkit convert scan.png -o scan.jpg --progressive --strip
              cropkit convert in.jpg -o out.jpg --quality 90 --subsampling 420 --force
              cropkit convert big.jpg -o preview.jpg --scale 8 --early-stop dc
              cropkit convert photo.jpg -o photo.jxl
            """)

    @Argument(help: "The input image (JPEG, PNG, WebP, HEIC/HEIF, AVIF, GIF, TIFF, BMP, JPEG XL or JPEG 2000).")
    package var input: String

    @Option(name: [.short, .long], help: "The output file.")
    package var output: String

    @Option(help: "Shrink a JPEG on load by 1, 2, 4 or 8 (libjpeg DCT scaling).")
    package var scale: JPEGScale = .full

    @Option(
        help:
            "Progressive JPEG at --scale 8: stop reading once the output is final (exact), after the DC scans (dc), or never (off)."
    )
    package var earlyStop: JPEGEarlyStop = .exact

    @Flag(help: .hidden)  // Benchmarks/eighth.sh: libjpeg's Huffman decoder instead of CropKit's
    package var libjpegEntropy = false

    @OptionGroup var blur: FaceBlurOptions

    @OptionGroup var mark: WatermarkOptions

    @OptionGroup var preset: PresetOptions

    @OptionGroup var common: CommonOptions

    package func validate() throws {
        guard preset.preset != nil else { return }
        let given: [(Bool, String)] = [
            (common.format != nil, "--format"), (common.quality != nil, "--quality"),
            (common.effort != nil, "--effort"),
            (common.lossless, "--lossless"), (common.strip, "--strip"), (common.metadata != nil, "--metadata"),
            (common.bitDepth != nil, "--bit-depth"), (scale != .full, "--scale"), (blur.blurFaces, "--blur-faces"),
            (mark.watermark != nil, "--watermark"),
        ]
        if let flag = given.first(where: \.0)?.1 {
            throw ValidationError(
                "\(flag) and --preset: the preset decides the steps and the encoding, as the service does.")
        }
    }

    package func run() throws {
        if let query = try preset.query() {
            try runPreset(query)
            return
        }
        var pipeline = common.pipeline(threads: common.jobs ?? 0)
        pipeline.libjpegEntropy = libjpegEntropy
        let sink = ImageSink.file(output, options: common.saveOptions)
        try runSingleFile("convert", FileJob(input: input, output: output), options: common) {
            let steps = [blur.operation, try mark.operation()].compactMap { $0 }
            if !steps.isEmpty {
                // Faces to hide or a mark to lay: the whole pipeline (one decode, the steps, one encode) instead of a
                // transcode.
                return Written(try pipeline.run(.file(input), steps, to: sink))
            }
            return Written(
                try pipeline.transcode(.file(input), scale: scale, earlyStop: earlyStop, to: sink))
        }
    }
}

extension ConvertCommand {
    /// Runs a preset as the service does: its steps, its encoding, its shrink-on-load headroom; the output's name
    /// gives the format when the preset names none.
    private func runPreset(_ query: ImageQuery) throws {
        if query.placeholder != nil {
            throw CommandError("preset \(preset.preset ?? "") answers a placeholder; run cropkit placeholder --preset")
        }
        var options = query.saveOptions
        options.overwrite = common.force
        if case .fixed(let format) = query.format {
            guard ImageFormat(pathExtensionOf: output) == format else {
                throw ValidationError(
                    "preset \(preset.preset ?? "") writes \(format); name the output .\(format.fileExtension).")
            }
            options.format = format
        }
        let pipeline = preset.pipeline(strict: common.strict, threads: common.jobs ?? 0)
        try runSingleFile("convert", FileJob(input: input, output: output), options: common) {
            Written(try pipeline.run(.file(input), query.operations, to: .file(output, options: options)))
        }
    }
}
