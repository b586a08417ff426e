import CropKit
import Foundation
import Hummingbird

/// The folder workflow's routes: the strip's list, copying a crop to other photos, and Export all.
extension EditorServer {
    /// What `GET /api/images` answers.
    struct FolderList: Codable, Hashable {
        /// The server's own pictures, in order.
        var images: [EditorLibrary.Item]
        /// Whether crops are saved beside the photos (a folder or a file list).
        var savesCrops: Bool
        /// Where Export all writes, when it can.
        var exportFolder: String?
    }

    /// What copying a crop did (`POST /api/sessions/{id}/copy`).
    struct CopyOutcome: Codable, Hashable {
        /// The photos that now have the crop.
        var copied: [String]
        /// The photos it could not be copied to, and why.
        var failed: [FolderExport.Progress.Failure]
        /// The id of the photo after the session's, if any (where "copy to next" leads).
        var next: String?
    }

    /// `GET /api/images`: the server's pictures with their saved-crop marks and thumbnails.
    func folderList() async throws -> Response {
        try jsonResponse(
            FolderList(
                images: await library.items(), savesCrops: library.savesCrops,
                exportFolder: export?.folder))
    }

    /// `POST /api/sessions/{id}/copy?to=next|all`: gives the next photo, or every other photo, the session's crop
    /// (``CropState/copyCrop(from:)``: same turns, flip, straighten and aspect) and saves it beside each.
    func copyCrop(session id: String, request: Request) async throws -> Response {
        guard library.savesCrops else { throw EditorError.noFolder }
        let to = request.uri.queryParameters["to"].map(String.init) ?? ""
        guard to == "next" || to == "all" else {
            throw EditorError.invalidParameter(name: "to", reason: "must be 'next' or 'all', not '\(to)'")
        }
        let (imageID, image, recipe) = try await sessionRecipe(id)
        let minimum = configuration.constraints.minimumCropSize
        let source = try CropState(
            recipe: recipe, sourceSize: image.info.storedSize, orientation: image.info.orientation,
            minimumCropSize: minimum)
        let ids = library.ids
        let index = ids.firstIndex(of: imageID)
        let next = index.flatMap { $0 + 1 < ids.count ? ids[$0 + 1] : nil }
        let targets = to == "next" ? (next.map { [$0] } ?? []) : ids.filter { $0 != imageID }
        var outcome = CopyOutcome(copied: [], failed: [], next: next)
        for target in targets {
            let name = library.name(of: target) ?? target
            do {
                let path = library.path(of: target) ?? ""
                let info = try await renderQueue.perform { try ImageSource.file(path).info() }
                var state = try CropState(
                    sourceSize: info.storedSize, orientation: info.orientation,
                    minimumCropSize: minimum)
                state.copyCrop(from: source)
                try await library.save(state.recipe, of: target)
                outcome.copied.append(name)
            } catch {
                outcome.failed.append(.init(name: name, message: EditorError.message(for: error)))
            }
        }
        return try jsonResponse(outcome)
    }

    /// `POST /api/export`: starts rendering every photo with a saved crop (and, when the server proposes a start,
    /// every other photo at its proposal) into the export folder; 202 with the starting progress.
    func startExport() async throws -> Response {
        guard let export else { throw EditorError.noFolder }
        // Every open page's last change is on disk before the sidecars are read.
        await saveEveryPendingEdit()
        var jobs: [FolderExport.Job] = []
        for id in library.ids {
            let name = library.name(of: id) ?? id, path = library.path(of: id) ?? ""
            do {
                if let saved = try library.savedCrop(of: id) {
                    jobs.append(.init(name: name, source: path, steps: .success([.recipe(saved)])))
                } else if !library.start.isEmpty {
                    jobs.append(.init(name: name, source: path, steps: .success(library.start)))
                }
            } catch {
                jobs.append(.init(name: name, source: path, steps: .failure(error)))
            }
        }
        let pipeline = configuration.pipeline, constraints = configuration.constraints, queue = renderQueue
        let progress = try await export.start(
            jobs,
            outputFormat: { format in
                constraints.isRound && format.defaultOutput == .jpeg ? .png : format.defaultOutput
            }
        ) { source, steps, output in
            let sink = ImageSink<WrittenFile>.file(output, options: SaveOptions(overwrite: true))
            return try await queue.withSlot {
                try await queue.performPlanned({
                    try pipeline.memoryPlan(.file(source), steps + constraints.outputSteps, to: sink).peakBytes
                }) {
                    try pipeline.run(.file(source), steps + constraints.outputSteps, to: sink)
                }
            }
        }
        return try jsonResponse(progress, status: .accepted)
    }
}

extension EditorServer {
    /// Saves every open page's pending crop beside its photo now (Export all does this first; `cropkit edit` does it
    /// when a stop takes longer than it should).
    public func saveEveryPendingEdit() async {
        for saver in await sessions.savers() { await saver.flush() }
    }
}
