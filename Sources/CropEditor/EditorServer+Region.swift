import CropKit
import Foundation
import HTTPTypes
import Hummingbird

/// Sharp at every zoom: a region of a picture rendered from the source at the resolution the screen shows it.
extension EditorServer {
    /// The largest side of a region render, in pixels.
    static let maximumRegionSide = 4096

    /// `GET /api/images/{id}/region?x=&y=&width=&height=&outWidth=&outHeight=`: the part of the picture under the
    /// preview rectangle `x, y, width, height` (preview pixels, stored orientation, like the view state's
    /// `image.transform`), read from the source and scaled to fit `outWidth × outHeight` (at most
    /// ``maximumRegionSide`` each, and never above the source's own pixels: the answer is the real pixels, not an
    /// upscale).
    ///
    /// The rectangle is widened to whole source pixels and clipped to the picture; the answer says which source
    /// rectangle it shows in `X-Region` (`x,y,width,height` in stored source pixels), so the page places it exactly.
    /// It is rendered in a render slot (503 when the queue is full, which a page can ignore: it keeps the preview).
    func renderRegion(id: String, request: Request) async throws -> Response {
        let query = request.uri.queryParameters
        func number(_ name: String) throws(EditorError) -> Double {
            guard let text = query[Substring(name)].map(String.init), let value = Double(text), value.isFinite else {
                throw .invalidParameter(name: name, reason: "must be a finite number")
            }
            return value
        }
        func side(_ name: String) throws(EditorError) -> Int {
            guard let text = query[Substring(name)].map(String.init), let value = Int(text), value >= 1 else {
                throw .invalidParameter(name: name, reason: "must be a whole number of pixels, at least 1")
            }
            return min(value, Self.maximumRegionSide)
        }
        let (x, y, width, height) = (try number("x"), try number("y"), try number("width"), try number("height"))
        let out = PixelSize(validWidth: try side("outWidth"), height: try side("outHeight"))
        guard width > 0, height > 0 else {
            throw EditorError.invalidParameter(
                name: "width", reason: "the region must have a positive width and height")
        }
        let image = try await library.image(id)
        guard
            let region = Rect(x: x, y: y, width: width, height: height)
                .wholePixels(scaledFrom: image.previewSize, to: image.info.storedSize)
        else {
            throw EditorError.invalidParameter(name: "x", reason: "the region lies outside the picture")
        }
        // AVIF at quality 60 when the page says its browser takes it (effort 2: a region answers a gesture, so it
        // encodes fast), else lossy WebP at quality 90; a PNG source's region is lossless WebP, as its preview.
        let (format, lossless) = Self.transferFormat(of: image, accept: request.headers[.accept])
        let avif = format == .avif
        let steps = ImageOperation.undoing(image.info.orientation) + [.crop(region), .fit(within: out)]
        let result = try await renderPlanned(
            image.bytes, steps,
            to: .data(
                SaveOptions(
                    format: format, quality: avif ? 60 : 90, lossless: lossless, effort: 2,
                    stripMetadata: true)))
        return Response(
            status: .ok,
            headers: [
                .contentType: format.mimeType, .cacheControl: "private, max-age=300", .vary: "Accept",
                .xContentTypeOptions: "nosniff",
                .region: "\(Int(region.minX)),\(Int(region.minY)),\(Int(region.width)),\(Int(region.height))",
                .imageWidth: String(result.size.width), .imageHeight: String(result.size.height),
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: result.bytes)))
    }
}

extension HTTPField.Name {
    /// The stored source rectangle a region render shows (`x,y,width,height`).
    static let region = HTTPField.Name("X-Region")!
}
