import CropKit
import Foundation
import HTTPTypes
import Hummingbird

/// Previews sized to the stage: a page asks for the preview at the size it shows the picture in device pixels, in
/// AVIF when its browser takes it, else WebP. The view state's transform still positions the picture's nominal
/// preview (``EditedImage/previewSize``); a page draws any of these at that nominal size, so only the bytes change.
extension EditorServer {
    /// Stage-sized previews are made in steps of this many pixels (so that nearby stages share one, and a cache
    /// keeps few).
    static let previewSideStep = 128

    /// `GET /api/images/{id}/preview?side=N`: the preview fitted within `N × N` (rounded up to a multiple of
    /// ``previewSideStep``, and never above the nominal preview, which a larger `N` gets as it is). AVIF at quality 60
    /// (effort 2, about 0.1 s for a megapixel) when `Accept` names `image/avif`, else WebP at quality 75; a PNG
    /// source's preview stays lossless WebP. Made once per picture, size and format from the source with
    /// shrink-on-load, in a render slot, and kept in ``previewCache``.
    func stagePreview(id: String, request: Request) async throws -> Response {
        let image = try await library.image(id)
        guard let text = request.uri.queryParameters["side"].map(String.init) else { return previewResponse(image) }
        guard let requested = Int(text), requested >= 16 else {
            throw EditorError.invalidParameter(name: "side", reason: "must be a whole number of pixels, at least 16")
        }
        let step = Self.previewSideStep
        let side = min(4096, (requested + step - 1) / step * step)
        let nominal = max(image.previewSize.width, image.previewSize.height)
        let (format, lossless) = Self.transferFormat(of: image, accept: request.headers[.accept])
        let avif = format == .avif
        guard side < nominal || avif else { return previewResponse(image) }
        let key = PreviewCache.Key(image: id, bytes: image.bytes.count, side: min(side, nominal), format: format)
        let bytes: [UInt8]
        if let cached = await previewCache.preview(key) {
            bytes = cached
        } else {
            var options = SaveOptions(
                format: format, quality: avif ? 60 : 75, lossless: lossless,
                effort: avif ? 2 : 4, stripMetadata: true)
            options.frames = .first
            bytes = try await renderPlanned(
                image.bytes, EditedImage.previewSteps(image.info, key.side), to: .data(options)
            ).bytes
            await previewCache.insert(bytes, for: key)
        }
        return Response(
            status: .ok,
            headers: [
                .contentType: format.mimeType, .cacheControl: "private, max-age=300", .vary: "Accept",
                .xContentTypeOptions: "nosniff",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// The format a preview or region of `image` travels in: AVIF when the request's `Accept` names it, else WebP;
    /// lossless WebP for a PNG source, whose pixels are drawn exactly.
    static func transferFormat(of image: EditedImage, accept: String?) -> (format: ImageFormat, lossless: Bool) {
        let lossless = image.info.format == .png
        return (!lossless && MediaRanges(accept).accepts("image/avif") ? .avif : .webp, lossless)
    }

    /// The nominal preview, as made when the picture was opened.
    func previewResponse(_ image: EditedImage) -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: image.previewContentType, .cacheControl: "no-cache", .xContentTypeOptions: "nosniff",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: image.preview)))
    }

    /// Runs `steps` on `bytes` into `sink` in a render slot, with the memory the plan says reserved (503 when the
    /// queue is full); a pipeline error becomes the editor's.
    func renderPlanned(_ bytes: [UInt8], _ steps: [ImageOperation], to sink: ImageSink<EncodedImage>) async throws
        -> EncodedImage
    {
        let pipeline = configuration.pipeline
        do {
            return try await renderQueue.withSlot {
                try await renderQueue.performPlanned({
                    try pipeline.memoryPlan(.data(bytes), steps, to: sink).peakBytes
                }) {
                    try pipeline.run(.data(bytes), steps, to: sink)
                }
            }
        } catch let error as CropKitError {
            throw EditorError(error)
        }
    }
}

/// The stage-sized previews made so far, newest kept, at most ``limit`` bytes in all.
actor PreviewCache {
    struct Key: Hashable {
        /// The picture's id, and its file's size (an id names one picture while the server runs; the size is a
        /// cheap guard all the same).
        var image: String
        var bytes: Int
        var side: Int
        var format: ImageFormat
    }

    /// The most bytes kept.
    let limit: Int
    private var entries: [Key: [UInt8]] = [:]
    private var order: [Key] = []
    private var total = 0

    init(limit: Int = 48 << 20) {
        self.limit = limit
    }

    func preview(_ key: Key) -> [UInt8]? {
        guard let bytes = entries[key] else { return nil }
        order.removeAll { $0 == key }
        order.append(key)
        return bytes
    }

    func insert(_ bytes: [UInt8], for key: Key) {
        guard bytes.count <= limit, entries[key] == nil else { return }
        entries[key] = bytes
        order.append(key)
        total += bytes.count
        while total > limit, let oldest = order.first {
            order.removeFirst()
            total -= entries.removeValue(forKey: oldest)?.count ?? 0
        }
    }
}
