import Foundation

/// Runs `body` with a fresh, empty folder of its own (so tests running in parallel never share files, and no test
/// changes the process's working directory), removed when `body` returns or throws.
public func withScratchFolder<R>(_ body: (String) throws -> R) throws -> R {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cropkit-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    return try body(dir.path)
}
