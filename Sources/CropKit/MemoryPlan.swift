import CropAnalysis
import CropCodecs
import CropGeometry
import CropPixels

/// What one run holds in memory at its peak, planned from the source's header before anything is decoded: the basis
/// on which a service admits work by memory (`cropkit serve --memory-budget`).
///
/// The plan is the sum of five parts, each an upper bound of what that part was measured to hold (the memory test in
/// `CLITests` runs every format and path and holds each run's measured peak under its plan):
/// - ``sourceBytes``: encoded bytes held in memory: a ``ImageSource/data(_:)`` source's array and the decoders' copy;
///   a file read whole by a decoder that needs all its bytes (WebP, HEIF/AVIF, GIF, TIFF, BMP);
/// - ``decoderBytes``: what the decoder holds whole (``ImageInfo``'s decoder memory: a progressive JPEG's coefficients,
///   libheif's planes …) and its rows;
/// - ``renderBytes``: the resampler's rows, or a straightened render's source-row window; the whole output when it
///   must be turned or post-processed (pixel steps) before it is encoded;
/// - ``encoderBytes``: the encoder's working set (a whole-picture encoder holds the picture and more: AVIF and HEIC
///   about 28 and 24 bytes per pixel) and, for an in-memory sink, the encoded bytes;
/// - ``analysisBytes``: the small decoded copy an automatic straighten or a smart gravity measures, or the picture a
///   smart fill decodes once and hands to the render.
///
/// Invariant: every part is ≥ 0; ``peakBytes`` is their sum plus ``overhead``, saturating.
package struct MemoryPlan: Hashable, Sendable, CustomStringConvertible {
    package var sourceBytes = 0
    package var decoderBytes = 0
    package var renderBytes = 0
    package var encoderBytes = 0
    package var analysisBytes = 0

    /// A run's fixed cost beyond its parts: libraries' own state, 64 KB I/O buffers, thread stacks (4 MiB).
    package static let overhead = 4 << 20

    /// The planned peak, in bytes.
    package var peakBytes: Int {
        [sourceBytes, decoderBytes, renderBytes, encoderBytes, analysisBytes].reduce(Self.overhead) {
            let (sum, overflow) = $0.addingReportingOverflow(Swift.max(0, $1))
            return overflow ? .max : sum
        }
    }

    package var description: String {
        func mb(_ bytes: Int) -> String { (Double(bytes) / 1_048_576).decimal(places: 1) }
        return
            "\(mb(peakBytes)) MB (source \(mb(sourceBytes)), decoder \(mb(decoderBytes)), render \(mb(renderBytes)), "
            + "encoder \(mb(encoderBytes)), analysis \(mb(analysisBytes)))"
    }

    /// What a whole-picture encoder holds beyond the rows: bytes per output pixel and a fixed part (measured: libaom
    /// about 26 bytes per pixel and some 20 MB whatever the size, x265 about 21.5, libwebp about 7 on a 4032×2688
    /// photo; libjxl 0.7 on a 1920×1280 photo, lossy or lossless, 44 at effort 3 to 5, 97 at 7 (its default), 278 at
    /// 9); JPEG and PNG stream rows and hold neither.
    static func encoderMemory(_ format: ImageFormat, depth: BitDepth, effort: Int?) -> (perPixel: Double, fixed: Int) {
        let wide = depth == .sixteen ? 1.5 : 1
        switch format {
        case .avif: return (28 * wide, 24 << 20)
        case .heif: return (24 * wide, 16 << 20)
        case .webp: return (8, 4 << 20)
        case .jxl:
            let effort = effort ?? ImageFormat.jxl.defaultEffort!
            return ((effort <= 5 ? 48 : effort <= 7 ? 104 : 290) * wide, 16 << 20)
        default: return (0, 0)
        }
    }
}

extension ImagePipeline {
    /// The memory a run of `operations` on `source` into `sink` will hold at its peak, planned from the header alone
    /// (see ``MemoryPlan``). Automatic steps are planned at their most expensive: an automatic straighten at
    /// `StraightenDetector.maximumAngle`, a smart gravity as a centred one plus what measuring it holds.
    ///
    /// - Throws: ``CropKitError`` for a bad chain or sink, an unreadable header, or a picture past ``limits``.
    package func memoryPlan<Output: Sendable>(
        _ source: ImageSource, _ operations: [ImageOperation], to sink: ImageSink<Output>
    ) throws(CropKitError) -> MemoryPlan {
        try PipelinePlan.validate(operations)
        let encoded = try sink.encodedFormat()
        let opened = try open(source)
        let info = opened.info
        var plan = MemoryPlan()

        // The steps as planned: automatic ones at their most expensive.
        var measures = false
        let planned = operations.map { operation -> ImageOperation in
            switch operation {
            case .autoStraighten:
                measures = true
                return .straighten(StraightenDetector.maximumAngle)
            case .aspectCrop(let ratio, let gravity) where gravity.isSmart:
                measures = true
                return .aspectCrop(ratio, gravity: .center)
            default:
                if operation.smartGravity != nil { measures = true }
                return operation.replacingFillGravity(with: .center)
            }
        }
        var pipelinePlan = try PipelinePlan(
            planned, storedSize: opened.storedSize, orientation: info.orientation, maxThreads: maxThreads)
        if let outputSideLimit { pipelinePlan.reduce(toSide: outputSideLimit) }
        let geometry = pipelinePlan.geometry
        let scale = decodeScale(for: opened, reduction: geometry.reduction)
        let decoded = (JPEGScale(rawValue: scale) ?? .full).scaledSize(width: info.width, height: info.height)
        let pixel = info.decodedFormat.bytesPerPixel
        let decodedRowBytes = decoded.0 * pixel

        // Encoded bytes in memory.
        if case .data(let bytes) = source { plan.sourceBytes = 2 * bytes.count }
        if case .file = source, [.webp, .heif, .avif, .gif, .tiff, .bmp, .jxl, .jp2].contains(info.format) {
            plan.sourceBytes = (try? mappingErrors { try opened.input().byteCount }) ?? 0
        }

        // The decoder: what it holds whole, and a band of rows in and out of it.
        plan.decoderBytes =
            info.decoderMemory.bytes(width: info.width, height: info.height, scale: scale)
            + 2 * Self.bandRows * decodedRowBytes

        // The render: the resampler's staging blocks and rings, or the straightened window; a collected output and
        // its turned copy, and a new picture per pixel step.
        let output = geometry.outputSize
        let outputPixel = pipelinePlan.pixelSteps.isEmpty ? pixel : Swift.max(pixel, 4)  // a step may add alpha
        let outputRowBytes = output.width * pixel
        if geometry.uprightRect != nil {
            let taps = Int((geometry.reduction / Double(scale) * 6).rounded(.up)) + 8
            plan.renderBytes = 2 * 128 * decodedRowBytes + (taps + 128) * output.width * info.channelCount * 4
        } else {
            let layout = try AffineLayout(
                geometry, scale: scale, decodedSize: PixelSize(validWidth: decoded.0, height: decoded.1),
                strips: Self.columnStrips)
            plan.renderBytes =
                layout.windowBytes(bytesPerPixel: pixel) + Self.bandRows * decodedRowBytes
                + 4 * Self.renderBandRows * outputRowBytes
        }
        let turned = geometry.uprightRect != nil && geometry.orientation != .up
        if turned || !pipelinePlan.pixelSteps.isEmpty {
            let copies = 2 + pipelinePlan.pixelSteps.count
            plan.renderBytes +=
                copies
                * DecodeBudget.pictureBytes(
                    width: output.width, height: output.height, bytesPerPixel: outputPixel)
        }

        // The encoder, and the encoded bytes of an in-memory sink (at most the raw pixels).
        let outputBytes = DecodeBudget.pictureBytes(width: output.width, height: output.height, bytesPerPixel: pixel)
        if let encoded {
            let encoder = MemoryPlan.encoderMemory(encoded, depth: info.decodedDepth, effort: sink.options.effort)
            plan.encoderBytes =
                Int((Double(output.width) * Double(output.height) * encoder.perPixel).rounded(.up))
                + encoder.fixed + 16 * outputRowBytes
            if case .data = sink.target { plan.encoderBytes += outputBytes }
        } else {
            plan.encoderBytes = outputBytes  // the pixels themselves are the result
        }

        // Measuring: a copy of at most 1024 pixels a side and the detector's planes, or the picture a smart fill
        // decodes whole (at most PredecodedPicture.pixelBudget pixels) and keeps for the render.
        if measures {
            let side = StraightenDetector.analysisSide
            plan.analysisBytes = side * side * 16
            let wholePixels = decoded.0 * decoded.1
            if operations.contains(where: { $0.smartGravity != nil }), wholePixels <= PredecodedPicture.pixelBudget {
                plan.analysisBytes += wholePixels * pixel
            }
        }

        // Faces (a step placed by Gravity.face, or blurFaces): the detector's copy, its pyramid and their HOG
        // features, about 24 bytes per pixel of a copy of at most HOGFaceDetector.maximumPixels.
        let placesByFace = operations.contains {
            if case .aspectCrop(_, .face) = $0 { return true }
            if case .blurFaces = $0 { return true }
            return $0.fillGravity == .face
        }
        if placesByFace { plan.analysisBytes += 24 * HOGFaceDetector().maximumPixels }

        // An animation kept whole: the file in memory (counted above), about five RGBA canvases (the one being
        // composited, a saved one for "restore to previous", two waiting in the hand-off, the one being rendered),
        // and an encoder holding a few output frames and the encoded file (at most a byte per pixel per frame).
        if try animationFormat(opened, sink) != nil {
            let canvas = DecodeBudget.pictureBytes(width: info.width, height: info.height, bytesPerPixel: 4)
            let outputPixels = output.width * output.height
            let (encodedBound, overflow) = (info.frameCount ?? 1).multipliedReportingOverflow(by: outputPixels)
            plan.decoderBytes = 5 * canvas
            plan.encoderBytes = overflow ? .max : 24 * outputPixels + encodedBound + (4 << 20)
        }
        return plan
    }
}
