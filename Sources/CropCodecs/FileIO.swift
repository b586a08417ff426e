#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Reading image files and writing them atomically.
///
/// Errors are ``CodecError/ioFailure(path:operation:reason:)`` with the path and the system's message, or
/// ``CodecError/fileExists(path:)``.
package enum FileIO {
    /// The first bytes of a file.
    package struct Prefix: Sendable {
        /// Up to the requested number of bytes.
        package var bytes: [UInt8]
        /// Whether `bytes` is the whole file.
        package var isWholeFile: Bool
    }

    /// Reads a whole regular file.
    /// - Throws: ``CodecError/ioFailure(path:operation:reason:)`` when it cannot be opened or read, or is not a
    ///   regular file (devices and pipes are refused: they may never end).
    package static func readFile(atPath path: String) throws(CodecError) -> [UInt8] {
        try readBytes(path: path, maxBytes: nil).bytes
    }

    /// Reads at most `maxBytes` bytes from the start of a regular file.
    package static func readPrefix(ofFileAtPath path: String, maxBytes: Int) throws(CodecError) -> Prefix {
        try readBytes(path: path, maxBytes: max(maxBytes, 0))
    }

    /// Throws ``CodecError/fileExists(path:)`` when `path` exists and `overwrite` is false. Lets a command fail
    /// before doing any work; ``writeAtomically(_:toPath:overwrite:)`` checks again when it commits.
    package static func checkCanCreate(path: String, overwrite: Bool) throws(CodecError) {
        if !overwrite && exists(path) { throw .fileExists(path: path) }
    }

    /// Writes `bytes` to `path` atomically: into a temporary file in the same directory, flushed to disk with
    /// `fsync`, then moved into place. Readers see the old file or the complete new one, never a partial file; on
    /// any error the temporary file is removed and an existing file is left untouched.
    ///
    /// - Parameter overwrite: replace an existing file; otherwise an existing file is an error (checked atomically:
    ///   the new file is linked into place, which fails if the name is taken).
    /// - Throws: ``CodecError/fileExists(path:)`` or ``CodecError/ioFailure(path:operation:reason:)``.
    package static func writeAtomically(_ bytes: [UInt8], toPath path: String, overwrite: Bool = false)
        throws(CodecError)
    {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(CodecError) in
                try writeAtomically(buffer, toPath: path, overwrite: overwrite, failBeforeCommit: false)
            }
        }
        try result.get()
    }

    /// Writes the bytes in `buffer` to `path` atomically; see ``writeAtomically(_:toPath:overwrite:)``.
    package static func writeAtomically(_ buffer: UnsafeRawBufferPointer, toPath path: String, overwrite: Bool = false)
        throws(CodecError)
    {
        try writeAtomically(buffer, toPath: path, overwrite: overwrite, failBeforeCommit: false)
    }

    /// The implementation, with a fault-injection switch for tests: `failBeforeCommit` fails after the data was
    /// written and synced, just before the file would be moved into place.
    static func writeAtomically(
        _ bytes: UnsafeRawBufferPointer, toPath path: String, overwrite: Bool, failBeforeCommit: Bool
    ) throws(CodecError) {
        let file = try AtomicFile(path: path, overwrite: overwrite)
        try writeAll(bytes, to: file.descriptor, path: file.temporaryPath)
        if failBeforeCommit {
            throw .ioFailure(path: path, operation: "write", reason: "injected failure before commit")
        }
        try file.commit()
    }

    // MARK: Helpers

    private static func readBytes(path: String, maxBytes: Int?) throws(CodecError) -> Prefix {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure(path, "open") }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw failure(path, "stat") }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw .ioFailure(path: path, operation: "read", reason: "not a regular file")
        }
        let size = Int(status.st_size)
        let wanted = min(size, maxBytes ?? size)
        var bytes = [UInt8](repeating: 0, count: wanted)
        var filled = 0
        var readError: Int32 = 0
        bytes.withUnsafeMutableBytes { buffer in
            while filled < wanted {
                let n = read(fd, buffer.baseAddress! + filled, wanted - filled)
                if n > 0 {
                    filled += n
                } else if n == 0 {
                    break
                } else if errno != EINTR {
                    readError = errno
                    break
                }
            }
        }
        if readError != 0 { throw failure(path, "read", readError) }
        if filled < wanted { bytes.removeLast(wanted - filled) }
        return Prefix(bytes: bytes, isWholeFile: filled == size || maxBytes == nil)
    }

    static func createTemporaryFile(for path: String, in directory: String) throws(CodecError)
        -> (String, Int32)
    {
        let name = path.split(separator: "/").last.map(String.init) ?? "output"
        for _ in 0..<16 {
            let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 36)
            let temporary = directory + "/." + name + ".cropkit-" + suffix + ".tmp"
            let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if fd >= 0 { return (temporary, fd) }
            if errno != EEXIST { throw failure(path, "create a temporary file for") }
        }
        throw .ioFailure(path: path, operation: "create a temporary file for", reason: "no free temporary name")
    }

    static func writeAll(_ buffer: UnsafeRawBufferPointer, to fd: Int32, path: String) throws(CodecError) {
        guard let base = buffer.baseAddress else { return }
        var written = 0
        while written < buffer.count {
            let n = write(fd, base + written, buffer.count - written)
            if n >= 0 {
                written += n
            } else if errno != EINTR {
                throw failure(path, "write")
            }
        }
    }

    static func syncDirectory(_ directory: String) {
        let fd = open(directory, O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            _ = fsync(fd)
            close(fd)
        }
    }

    static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    static func directoryName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func failure(_ path: String, _ operation: String, _ code: Int32 = errno) -> CodecError {
        .ioFailure(path: path, operation: operation, reason: String(cString: strerror(code)))
    }
}
