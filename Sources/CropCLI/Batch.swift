import ArgumentParser
import CropKit
import CropPixels
import Dispatch

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Runs one operation over many files in parallel, reporting progress, and never letting one bad file stop the
/// others.
package struct Batch {
    /// The command's name, for messages.
    package let command: String
    /// The files to make, in input order.
    package let jobs: [FileJob]
    /// Problems found while planning (two inputs with the same output name), by job index.
    package let planningErrors: [Int: CommandError]

    /// Plans the outputs: `-o OUT` for a single input, or `DIR/NAME.EXT` for each input in `--out-dir`, where `NAME`
    /// is the input's name without its extension and `EXT` comes from `format(input)` (the input's own extension
    /// is kept when it already names that format). Creates the folder if needed.
    package init(command: String, inputs: [String], destination: BatchOutputOptions, format: (String) -> ImageFormat)
        throws
    {
        self.command = command
        if let output = destination.output {
            jobs = inputs.map { FileJob(input: $0, output: output) }
            planningErrors = [:]
            return
        }
        let dir = destination.outDir ?? "."
        do {
            try Console.createFolder(dir)
        } catch {
            printError("cropkit \(command): \(error)")
            throw ExitCode.failure
        }
        var jobs: [FileJob] = []
        var errors: [Int: CommandError] = [:]
        var owners: [String: String] = [:]
        for (index, input) in inputs.enumerated() {
            let name = Paths.lastComponent(input)
            let (stem, nameExtension) = Paths.splitExtension(name)
            let wanted = format(input)
            let ext = ImageFormat(pathExtensionOf: name) == wanted ? nameExtension : wanted.fileExtension
            let output = Paths.joined(dir, stem.isEmpty ? name : "\(stem).\(ext)")
            if let owner = owners[output] {
                errors[index] = CommandError("its output \(output) is also the output of \(owner)")
            } else {
                owners[output] = input
            }
            jobs.append(FileJob(input: input, output: output))
        }
        self.jobs = jobs
        planningErrors = errors
    }

    /// Runs `work` on every job with `options.jobCount` files at a time, and reports each through a progress
    /// reporter. Returns normally when every file succeeded; otherwise throws exit status 1 after all have run.
    ///
    /// Each file's pipeline gets an equal share of the cores, so a batch of one file still uses them all.
    package func run(
        options: CommonOptions, progress: ProgressArgument,
        _ work: @escaping @Sendable (FileJob, ImagePipeline) throws -> Written
    ) throws {
        let workers = max(1, min(options.jobCount, jobs.count))
        let pipeline = options.pipeline(threads: max(1, Console.coreCount / workers))
        let reporter = ProgressReporter(
            command: command, total: jobs.count, style: ProgressReporter.style(for: progress, quiet: options.quiet))
        let queue = JobQueue(count: jobs.count)
        let force = options.force
        let jobs = self.jobs, planningErrors = self.planningErrors
        let group = DispatchGroup()
        for _ in 0..<workers {
            group.enter()
            Parallel.detach(stackSize: 4 << 20) {
                while let index = queue.next() {
                    let job = jobs[index]
                    do {
                        if let error = planningErrors[index] { throw error }
                        let outcome = try job.run(force: force) { try work(job, pipeline) }
                        reporter.finished(job, outcome: outcome, error: nil)
                    } catch {
                        reporter.finished(job, outcome: nil, error: error)
                    }
                }
                group.leave()
            }
        }
        group.wait()
        if reporter.finish() > 0 { throw ExitCode.failure }
    }
}

/// Hands out job indices 0, 1, 2 … to worker threads.
private final class JobQueue: @unchecked Sendable {
    // @unchecked Sendable: `nextIndex` is only read and written with `lock` held.
    private let lock = Lock()
    private var nextIndex = 0
    private let count: Int

    package init(count: Int) {
        self.count = count
    }

    /// The next index, or `nil` when all have been handed out.
    package func next() -> Int? {
        lock.locked {
            guard nextIndex < count else { return nil }
            nextIndex += 1
            return nextIndex - 1
        }
    }
}
