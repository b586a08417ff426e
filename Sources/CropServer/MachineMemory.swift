import Foundation

/// How much memory this process may use: the memory limit of its control group (a container's limit, cgroup v2 or
/// v1) when one is set, else the machine's physical memory.
public enum MachineMemory {
    /// The memory this process may use, in bytes.
    public static let available: Int = {
        let physical = Int(clamping: ProcessInfo.processInfo.physicalMemory)
        guard let limit = controlGroupLimit, limit > 0 else { return physical }
        return min(limit, physical)
    }()

    /// The control group's memory limit in bytes, or `nil` when there is none (or not on Linux).
    static var controlGroupLimit: Int? {
        for path in ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"] {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
            return parseLimit(text)
        }
        return nil
    }

    /// A control group file's limit: a number of bytes, or `nil` for `max` (cgroup v2) or a v1 "no limit" value
    /// (at or above 2^62).
    static func parseLimit(_ text: String) -> Int? {
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let bytes = Int(value), bytes > 0, bytes < 1 << 62 else { return nil }
        return bytes
    }
}
