#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A file being written atomically: the bytes go to a temporary file in the same folder (``descriptor``), and
/// ``commit()`` flushes it to disk and moves it into place. Readers see the old file or the complete new one, never a
/// partial file; a file that is not committed is removed, so an error (or a crash before the rename) leaves no
/// output behind and an existing file untouched.
///
/// Encoders write into ``descriptor`` as they go, so an output is never held whole in memory.
package final class AtomicFile {
    /// The file to create.
    package let path: String
    /// Replace an existing file (otherwise an existing file is an error, checked atomically when committing).
    package let overwrite: Bool
    /// The temporary file's name.
    package let temporaryPath: String
    /// The open temporary file, for writing; valid until ``commit()`` or ``abandon()``.
    package let descriptor: Int32

    private var open = true
    private var committed = false

    /// Creates the temporary file for `path`.
    ///
    /// - Throws: ``CodecError/fileExists(path:)`` when `path` exists and `overwrite` is false,
    ///   ``CodecError/ioFailure(path:operation:reason:)`` when the name is no file name or the folder cannot take a
    ///   new file.
    package init(path: String, overwrite: Bool) throws(CodecError) {
        guard !path.isEmpty, !path.hasSuffix("/") else {
            throw .ioFailure(path: path, operation: "write", reason: "not a file name")
        }
        try FileIO.checkCanCreate(path: path, overwrite: overwrite)
        (temporaryPath, descriptor) = try FileIO.createTemporaryFile(for: path, in: FileIO.directoryName(of: path))
        self.path = path
        self.overwrite = overwrite
    }

    deinit {
        abandon()
    }

    /// Flushes the temporary file to disk and moves it into place: renamed over an existing file when overwriting,
    /// otherwise linked under the new name (which fails if the name was taken meanwhile).
    ///
    /// - Throws: ``CodecError/fileExists(path:)`` or ``CodecError/ioFailure(path:operation:reason:)``; the temporary
    ///   file is then removed.
    package func commit() throws(CodecError) {
        guard open else {
            throw .ioFailure(path: path, operation: "write", reason: "the file was already closed")
        }
        open = false
        defer { if !committed { unlink(temporaryPath) } }
        guard fsync(descriptor) == 0 else {
            let error = FileIO.failure(temporaryPath, "sync")
            close(descriptor)
            throw error
        }
        guard close(descriptor) == 0 else { throw FileIO.failure(temporaryPath, "close") }
        if overwrite {
            guard rename(temporaryPath, path) == 0 else { throw FileIO.failure(path, "rename into place") }
        } else if link(temporaryPath, path) == 0 {
            unlink(temporaryPath)
        } else {
            let code = errno
            if code == EEXIST { throw .fileExists(path: path) }
            guard [EPERM, EXDEV, EMLINK, ENOSYS, EOPNOTSUPP].contains(code) else {
                throw FileIO.failure(path, "create", code)
            }
            // The file system has no hard links: check and rename (a small race remains there).
            if FileIO.exists(path) { throw .fileExists(path: path) }
            guard rename(temporaryPath, path) == 0 else { throw FileIO.failure(path, "rename into place") }
        }
        committed = true
        FileIO.syncDirectory(FileIO.directoryName(of: path))
    }

    /// Closes and removes the temporary file (nothing happens after ``commit()``).
    package func abandon() {
        guard open else { return }
        open = false
        close(descriptor)
        unlink(temporaryPath)
    }
}
