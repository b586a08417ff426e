import CropKit
import Foundation
import HTTPTypes
import Hummingbird

// The render API (`POST /api/render`) and Done (`POST /api/sessions/{id}/render`): a picture and a recipe in, the
// rendered file out, admitted by the render queue and its memory plan.
extension EditorServer {
    /// `POST /api/render`: the body is the image (raw, as any `image/…` type or `application/octet-stream`: the bytes
    /// say which format it is), or a
    /// `multipart/form-data` form with an `image` part and optionally a `recipe` part; the recipe may also come as
    /// the `recipe` query parameter.
    func renderAPI(_ request: Request) async throws -> Response {
        let options = try RenderOptions(query: request.uri.queryParameters)
        let contentType = request.headers[.contentType] ?? "application/octet-stream"
        let mediaType = contentType.split(separator: ";").first.map { $0.trimmingSpaces.lowercased() } ?? ""
        let isMultipart = mediaType == "multipart/form-data"
        guard isMultipart || mediaType.hasPrefix("image/") || mediaType == "application/octet-stream" else {
            throw EditorError.unsupportedMediaType(contentType)
        }
        let queryRecipe = try options.recipeJSON.map(Self.parseRecipe)
        if !isMultipart, queryRecipe == nil, !options.autoStraighten { throw EditorError.missingRecipe }
        try checkDeclaredLength(request)
        return try await renderQueue.withSlot {
            let body = try await collect(request)
            var imageBytes = body
            var recipe = queryRecipe
            if isMultipart {
                let form = try MultipartForm(body: body, contentType: contentType)
                guard let part = form.part(named: "image") else { throw EditorError.missingImage }
                imageBytes = Array(part.body)
                if recipe == nil, let text = form.part(named: "recipe") {
                    recipe = try Self.parseRecipe(String(decoding: text.body, as: UTF8.self))
                }
            }
            guard recipe != nil || options.autoStraighten else { throw EditorError.missingRecipe }
            guard !imageBytes.isEmpty else { throw EditorError.missingImage }
            return try await render(.data(imageBytes), recipe: recipe, options: options, baseName: "render")
        }
    }

    /// Done: `POST /api/sessions/{id}/render` renders the session's last state at full resolution.
    func renderSession(id: String, request: Request) async throws -> Response {
        let options = try RenderOptions(query: request.uri.queryParameters)
        let (imageID, image, recipe) = try await sessionRecipe(id)
        let constraints = configuration.constraints
        return try await renderQueue.withSlot {
            try await render(
                .data(image.bytes), recipe: recipe, options: options, baseName: image.baseName + "-edited",
                constraints: constraints)
        }
    }

    /// Renders on a worker thread and wraps the bytes in a response carrying the pixel size.
    private func render(
        _ source: ImageSource, recipe: Recipe?, options: RenderOptions, baseName: String,
        constraints: CropConstraints = .none
    ) async throws -> Response {
        let pipeline = configuration.pipeline
        let result: EncodedImage
        @Sendable func job() throws(CropKitError) -> (steps: [ImageOperation], sink: ImageSink<EncodedImage>) {
            var format: ImageFormat
            if let asked = options.format { format = asked } else { format = try source.info().format.defaultOutput }
            if constraints.isRound, options.format == nil, format == .jpeg { format = .png }
            let steps: [ImageOperation] =
                (recipe.map { [.recipe($0)] } ?? [])
                + (options.autoStraighten ? [.autoStraighten()] : [])
                + constraints.outputSteps
                + (options.maximumSize.map { [.fit(within: $0)] } ?? [])
            var save = SaveOptions(
                format: format, quality: options.quality, colorProfile: options.colorProfile, metadata: options.metadata
            )
            save.frames = options.frames
            return (steps, .data(save))
        }
        do {
            result = try await renderQueue.performPlanned({
                let (steps, sink) = try job()
                return try pipeline.memoryPlan(source, steps, to: sink).peakBytes
            }) {
                let (steps, sink) = try job()
                return try pipeline.run(source, steps, to: sink)
            }
        } catch let error as CropKitError {
            throw EditorError(error)
        }
        let format = result.format
        var headers: HTTPFields = [
            .contentType: format.mimeType,
            .contentDisposition: "attachment; filename=\"\(baseName).\(format.fileExtension)\"",
            .imageWidth: String(result.size.width), .imageHeight: String(result.size.height),
            .accessControlExposeHeaders: "X-Image-Width, X-Image-Height, Content-Disposition, CropKit-Straighten",
            .cacheControl: "no-store",
        ]
        if let summary = result.report.autoStraightenSummary { headers[.cropKitStraighten] = summary }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: result.bytes)))
    }

    static func parseRecipe(_ json: String) throws -> Recipe {
        do {
            return try Recipe(json: Data(json.utf8))
        } catch {
            throw EditorError.invalidRecipe(reason: error.description)
        }
    }
}

extension EditedImage {
    /// The name without its extension, safe for a `Content-Disposition` file name.
    var baseName: String {
        let stem = name.split(separator: ".").dropLast().joined(separator: ".")
        let safe = (stem.isEmpty ? name : stem).filter { $0.isLetter || $0.isNumber || "-_.".contains($0) }
        return safe.isEmpty ? "image" : safe
    }
}

extension HTTPField.Name {
    static let imageWidth = HTTPField.Name("X-Image-Width")!
    static let imageHeight = HTTPField.Name("X-Image-Height")!
    /// What `straighten=auto` measured (`RenderReport.autoStraightenSummary`), as `cropkit serve` also states it.
    static let cropKitStraighten = HTTPField.Name("CropKit-Straighten")!
}
