import CropCodecs
import CropEngine
import CropGeometry

extension ImagePipeline {
    /// Re-encodes `source` as it is stored, rows streaming from the decoder to the encoder so the picture is never
    /// held whole: no geometry, no resample, and the pixels keep their stored orientation (the EXIF orientation tag
    /// travels with the metadata unless ``SaveOptions/stripMetadata`` drops it). An animation (GIF, WebP, AVIF
    /// sequence) written as GIF, WebP or AVIF keeps every frame (each is re-encoded as it comes; see ``SaveOptions/frames``).
    ///
    /// - Parameters:
    ///   - source: the file or bytes to re-encode.
    ///   - scale: decode a JPEG at 1/2, 1/4 or 1/8 of its size (libjpeg's DCT scaling, rounding up); other formats are
    ///     not scaled.
    ///   - earlyStop: at 1/8, how far a progressive JPEG may skip its later scans.
    ///   - sink: where the output goes (see ``ImageSink``).
    /// - Throws: ``CropKitError`` naming the problem; nothing is written on failure.
    @discardableResult
    public func transcode<Output: Sendable>(
        _ source: ImageSource, scale: JPEGScale = .full, earlyStop: JPEGEarlyStop = .exact, to sink: ImageSink<Output>
    ) throws(CropKitError) -> Output {
        try sink.checkWritable()
        let opened = try open(source)
        if let recompressed = try recompressingJPEG(opened, scale: scale, to: sink) { return recompressed }
        if try animationFormat(opened, sink) != nil { return try run(source, [], to: sink) }
        let dropped = try droppedFramesWarning(opened, sink).map { [$0] } ?? []
        return try mappingErrors {
            let applied =
                opened.info.format == .jpeg || (opened.info.format == .webp && opened.info.frameCount == nil)
                ? scale : .full
            let decoder = try makeDecoder(opened, scale: applied, earlyStop: earlyStop)
            let size = PixelSize(validWidth: decoder.outputWidth, height: decoder.outputHeight)
            // With a second thread, the encoder runs on it while this one decodes: the decode's output pass and the
            // encode overlap. A large baseline JPEG output is then encoded in stripes on two threads (6000×4000 at q90:
            // 118 → 103 ms).
            let overlapped = maxThreads != 1
            let writer = try SinkWriter(
                sink, size: size, pixelFormat: decoder.outputFormat,
                metadata: decoder.metadata, asynchronous: overlapped, threads: overlapped)
            defer { writer.rows.drain() }
            try Self.pump(decoder, upTo: decoder.outputHeight, buffers: overlapped ? 4 : 1) { band, _, count in
                guard overlapped else { return try writer.rows.write(band, start: 0, count: count) }
                try writer.rows.writeLater(
                    count == band.height ? band : try band.cropped(x: 0, y: 0, width: band.width, height: count))
            }
            try decoder.finish()
            let untouched = try CropState(sourceSize: opened.storedSize, orientation: opened.info.orientation)
            return try writer.finish(
                RenderReport(
                    size: size, pixelFormat: decoder.outputFormat, decodeScale: applied.denominator,
                    cropState: untouched,
                    warnings: decoder.warnings.map(PipelineWarning.codec) + dropped))
        }
    }

    /// A JPEG written as JPEG XL with nothing changed (full scale, no quality asked for, metadata and colours kept):
    /// recompressed losslessly (``RenderReport/jpegRecompression`` says the saving), or `nil` for every other case and
    /// for a JPEG libjxl cannot represent (arithmetic coding, CMYK …), which is then re-encoded from its pixels.
    private func recompressingJPEG<Output: Sendable>(
        _ opened: OpenedSource, scale: JPEGScale, to sink: ImageSink<Output>
    ) throws(CropKitError) -> Output? {
        let options = sink.options
        guard opened.info.format == .jpeg, scale == .full, options.quality == nil, options.metadata == .keep,
            options.colorProfile == .keep, try sink.encodedFormat() == .jxl
        else { return nil }
        let jpeg = try mappingErrors { try opened.input().allBytes() }
        let jxl: [UInt8]
        do {
            jxl = try JXLEncoder.recompress(jpeg: jpeg, effort: options.effort(for: .jxl))
        } catch .unsupportedFeature {
            return nil
        } catch {
            throw CropKitError(error)
        }
        var report = RenderReport(
            size: opened.storedSize, pixelFormat: opened.info.decodedFormat, decodeScale: 1,
            cropState: try mappingErrors {
                try CropState(sourceSize: opened.storedSize, orientation: opened.info.orientation)
            },
            warnings: [])
        report.jpegRecompression = (jpeg.count, jxl.count)
        switch sink.target {
        case .image:
            return nil
        case .data(_, let make):
            return make(jxl, .jxl, report)
        case .file(let path, let options, let make):
            try mappingErrors { try FileIO.writeAtomically(jxl, toPath: path, overwrite: options.overwrite) }
            return make(path, .jxl, jxl.count, report)
        }
    }
}
