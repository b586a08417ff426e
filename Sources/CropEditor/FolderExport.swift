import CropKit
import Foundation

/// "Export all": the photos of a folder rendered at full resolution with their crops into one output folder,
/// several at once, with progress a page polls and every failure named.
///
/// One export runs at a time. Each photo is rendered by `render` (the editor's pipeline, in a render slot) to
/// `<output folder>/<name without extension>.<output format's extension>`, written atomically and replacing an
/// earlier export of it; two photos that would share a name (`a.jpg` and `a.jpeg`) keep their whole names
/// (`a.jpeg.jpg`). A photo that fails is reported with its name and why, and the others go on.
public actor FolderExport {
    /// One photo to export.
    public struct Job: Sendable {
        /// The photo's name (the file's), as reported.
        public var name: String
        /// The photo.
        public var source: String
        /// The steps that crop it (its saved recipe, or a proposal's steps), or why it has none that can be used.
        public var steps: Result<[ImageOperation], EditorError>

        /// A job for `source`, named `name`, cropped by `steps`.
        public init(name: String, source: String, steps: Result<[ImageOperation], EditorError>) {
            self.name = name
            self.source = source
            self.steps = steps
        }
    }

    /// What an export did so far (`GET /api/export`).
    public struct Progress: Codable, Hashable, Sendable {
        /// A photo written.
        public struct Written: Codable, Hashable, Sendable {
            /// The photo's name.
            public var name: String
            /// The file written.
            public var file: String
            /// Its pixel width.
            public var width: Int
            /// Its pixel height.
            public var height: Int
        }
        /// A photo that could not be exported.
        public struct Failure: Codable, Hashable, Sendable {
            /// The photo's name.
            public var name: String
            /// Why.
            public var message: String
        }
        /// Whether the export is still running.
        public var running = false
        /// The folder written to.
        public var folder: String
        /// How many photos the export renders.
        public var total = 0
        /// The photos written so far, in the order they finished.
        public var written: [Written] = []
        /// The photos that failed so far.
        public var failed: [Failure] = []
        /// How many photos are finished, written or failed.
        public var done = 0

        init(folder: String) { self.folder = folder }
    }

    /// The folder exports are written to (created when an export starts).
    public nonisolated let folder: String
    /// How many photos render at once.
    public nonisolated let concurrency: Int
    private var current: Progress
    private var task: Task<Void, Never>?

    /// An exporter into `folder`, rendering `concurrency` photos at once.
    public init(folder: String, concurrency: Int) {
        self.folder = folder
        self.concurrency = max(1, concurrency)
        self.current = Progress(folder: folder)
    }

    /// The current (or last) export's progress.
    public var progress: Progress { current }

    /// Starts exporting `jobs`; returns at once with the starting progress.
    ///
    /// - Parameters:
    ///   - jobs: the photos to export, in order.
    ///   - outputFormat: the format a photo of a format is written in (default: its own, PNG for formats CropKit
    ///     only reads); it names the output's extension, which `render` writes by.
    ///   - render: renders one photo with its steps to the given output path and returns what was
    ///     written; it throws to report the photo as failed.
    /// - Throws: `EditorError.exportRunning` while an export runs; `EditorError.cannotSave(name:reason:)` when
    ///   the output folder cannot be created.
    public func start(
        _ jobs: [Job], outputFormat: @Sendable (ImageFormat) -> ImageFormat = { $0.defaultOutput },
        render:
            @escaping @Sendable (_ source: String, _ steps: [ImageOperation], _ output: String) async throws ->
            WrittenFile
    ) throws(EditorError) -> Progress {
        guard task == nil else { throw .exportRunning }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw .cannotSave(name: folder, reason: error.localizedDescription)
        }
        current = Progress(folder: folder)
        current.total = jobs.count
        current.running = !jobs.isEmpty
        guard !jobs.isEmpty else { return current }
        let outputs = Self.outputNames(jobs, format: outputFormat)
        let width = concurrency
        task = Task {
            await withTaskGroup(of: Void.self) { group in
                var next = 0
                func add() {
                    guard next < jobs.count else { return }
                    let job = jobs[next], output = self.folder + "/" + outputs[next]
                    next += 1
                    group.addTask { await self.run(job, output: output, render: render) }
                }
                for _ in 0..<width { add() }
                while await group.next() != nil { add() }
            }
            self.finish()
        }
        return current
    }

    /// Waits for the running export, if any, and returns its progress.
    public func wait() async -> Progress {
        await task?.value
        return current
    }

    private func run(
        _ job: Job, output: String, render: @Sendable (String, [ImageOperation], String) async throws -> WrittenFile
    ) async {
        do {
            let written = try await render(job.source, try job.steps.get(), output)
            current.written.append(
                .init(name: job.name, file: written.path, width: written.size.width, height: written.size.height))
            current.done += 1
        } catch {
            current.failed.append(.init(name: job.name, message: EditorError.message(for: error)))
            current.done += 1
        }
    }

    private func finish() {
        current.running = false
        task = nil
    }

    /// The output file names: the photo's name without its extension plus the extension of the format it will
    /// be written in (`format` of its own), the whole name kept where two would collide.
    static func outputNames(_ jobs: [Job], format: @Sendable (ImageFormat) -> ImageFormat) -> [String] {
        var used = Set<String>()
        return jobs.map { job in
            let name = (job.source as NSString).lastPathComponent
            let format = format(ImageFormat(pathExtensionOf: name) ?? .jpeg)
            let stem = (name as NSString).deletingPathExtension
            var candidate = (stem.isEmpty ? name : stem) + "." + format.fileExtension
            if used.contains(candidate.lowercased()) { candidate = name + "." + format.fileExtension }
            used.insert(candidate.lowercased())
            return candidate
        }
    }
}
