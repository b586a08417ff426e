import CropCodecs
import CropPixels

extension ImagePipeline {
    /// The format a run of `opened` into `sink` writes an animation in, or `nil` for a still output: an animated GIF,
    /// WebP or JPEG XL source or an AVIF sequence, ``SaveOptions/frames`` ``FrameSelection/all``, and an output format that
    /// animates (GIF, WebP, AVIF).
    func animationFormat<Output>(_ opened: OpenedSource, _ sink: ImageSink<Output>) throws(CropKitError)
        -> ImageFormat?
    {
        guard opened.info.isAnimation, sink.options.frames == .all, let format = try sink.encodedFormat(),
            format.writesAnimation
        else { return nil }
        return format
    }

    /// The warning a still output of an animated source carries: the frames it dropped (none when the sink asked
    /// for the first frame, or takes pixels).
    func droppedFramesWarning<Output>(_ opened: OpenedSource, _ sink: ImageSink<Output>) throws(CropKitError)
        -> PipelineWarning?
    {
        guard opened.info.isAnimation, sink.options.frames == .all, let format = try sink.encodedFormat(),
            let frames = opened.info.frameCount
        else { return nil }
        return .framesDropped(frames: frames, format: format)
    }

    /// Renders every frame of an animation through one plan and encodes them as an animation in `format`.
    ///
    /// The plan was made once (a smart gravity measured the mean of all frames, an automatic straighten the first), so
    /// every frame gets the same crop, turn, straighten and scale and the picture does not jump. Frames stream: a
    /// thread composites the canvases (``FrameHandoff``, at most two waiting) while this one renders each and hands it
    /// to the encoder (libwebp keeps what changed, giflib nothing), so memory holds a few canvases and one output
    /// frame, never every frame.
    func runAnimation<Output: Sendable>(
        _ source: ImageSource, _ opened: OpenedSource, plan: PipelinePlan, format: ImageFormat,
        sink: ImageSink<Output>
    ) throws(CropKitError) -> Output {
        let frames = try openFrames(opened)
        // Each frame is a picture already decoded, at full size: nothing shrinks on load.
        var still = self
        still.shrinkOnLoad = false
        let frameInfo = Self.frameInfo(opened.info)
        var frameSource = opened
        var encoder: (any AnimationEncoder)?
        var report: RenderReport?
        var written = 0
        let handoff = FrameHandoff(frames)
        defer { handoff.close() }
        while let (picture, delay) = try mappingErrors({ try handoff.next() }) {
            frameSource.predecoded = PredecodedPicture(
                scale: 1, pixels: picture, info: frameInfo, metadata: .none, warnings: [])
            let rendered: RenderedImage =
                if let rect = plan.geometry.uprightRect {
                    try still.runAxisAligned(frameSource, plan: plan, uprightRect: rect, sink: .image)
                } else {
                    try still.runAffine(frameSource, plan: plan, sink: .image)
                }
            if encoder == nil {
                encoder = try mappingErrors {
                    try makeAnimationEncoder(
                        format: format, width: rendered.pixels.width, height: rendered.pixels.height,
                        playCount: opened.info.playCount, options: sink.options.encodeOptions)
                }
            }
            frameSource.predecoded = nil  // the frame's pixels go with it
            try mappingErrors { try encoder?.add(rendered.pixels, delayMilliseconds: delay) }
            report = report ?? rendered.report
            written += 1
        }
        guard let encoder, var report else {
            throw .codec(.corruptData(format: opened.info.format, message: "the animation has no frame to decode"))
        }
        let encoded = try mappingErrors { try encoder.finish() }
        report.frames = written
        return try sink.deliver(encoded: encoded, format: format, report: report)
    }
}

extension ImagePipeline {
    /// The reader of `opened`'s frames, after checking the animation against ``PixelLimits/maxAnimationPixels``. It
    /// reads the file in memory (bytes given in memory are used in place; a file is read straight into one copy),
    /// with the header already read.
    func openFrames(_ opened: OpenedSource) throws(CropKitError) -> any AnimationFrames {
        try mappingErrors {
            try limits.checkAnimation(
                frames: opened.info.frameCount ?? 1, width: opened.storedSize.width, height: opened.storedSize.height)
        }
        return try mappingErrors { () throws(CodecError) -> any AnimationFrames in
            let bytes = try opened.input().inMemory()
            let decoding = DecodeOptions(limits: limits, strict: strict)
            switch opened.info.format {
            case .gif: return try GIFFrames(bytes: bytes, info: opened.info, options: decoding)
            case .avif: return try AVIFFrames(bytes: bytes, info: opened.info, options: decoding)
            case .webp: return try WebPFrames(bytes: bytes, info: opened.info, options: decoding)
            case .jxl: return try JXLFrames(bytes: bytes, info: opened.info, options: decoding)
            default: throw .unsupportedFeature(format: opened.info.format, feature: "reading an animation")
            }
        }
    }

    /// What a frame's picture is: the header's facts with 8-bit RGBA pixels.
    static func frameInfo(_ info: ImageInfo) -> ImageInfo {
        var frame = info
        frame.layout = .rgba
        frame.decodedDepth = .eight
        return frame
    }

    /// The mean of every frame of an animation, 8-bit RGBA at the canvas's size: what a smart gravity measures for an
    /// animation written whole, so that the one window it chooses holds the most interest over all frames, not only
    /// over the first. Costs one more decode of the frames; holds one frame and a sum per sample.
    func meanFrame(_ opened: OpenedSource) throws(CropKitError) -> PixelBuffer {
        let frames = try openFrames(opened)
        let width = frames.width, height = frames.height
        var sums = [UInt32](repeating: 0, count: width * height * 4)
        var count: UInt32 = 0
        while let (picture, _) = try mappingErrors({ try frames.next() }), count < UInt32.max / 255 {
            picture.withUnsafeRows { rows in
                sums.withUnsafeMutableBufferPointer { sums in
                    for y in 0..<height {
                        let row = rows.row8(y), base = y * width * 4
                        for i in 0..<(width * 4) { sums[base + i] += UInt32(row[i]) }
                    }
                }
            }
            count += 1
        }
        let n = Swift.max(1, count)
        let samples = sums.map { UInt8(($0 + n / 2) / n) }
        return try mappingErrors { try PixelBuffer(width: width, height: height, layout: .rgba, samples: samples) }
    }
}

extension ImageSink {
    /// Delivers a file encoded whole (an animation): the bytes, or the file written atomically.
    func deliver(encoded bytes: [UInt8], format: ImageFormat, report: RenderReport) throws(CropKitError) -> Output {
        switch target {
        case .image:
            throw .invalidRequest(name: "sink", reason: "a pixel sink takes no encoded \(format)")
        case .data(_, let make):
            return make(bytes, format, report)
        case .file(let path, let options, let make):
            try mappingErrors { try FileIO.writeAtomically(bytes, toPath: path, overwrite: options.overwrite) }
            return make(path, format, bytes.count, report)
        }
    }
}
