#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An image file opened for reading, which decoders read a chunk at a time (so the file is never held whole). Only
/// regular files are accepted: devices and pipes may never end. Closed when released; never modified.
package final class InputFile {
    /// The file's path.
    package let path: String
    /// The open file, read from its start by one decoder.
    package let descriptor: Int32
    /// The file's size in bytes when it was opened.
    package let size: Int

    /// Opens `path` for reading.
    ///
    /// - Throws: ``CodecError/ioFailure(path:operation:reason:)`` when it cannot be opened or is not a regular file.
    package init(path: String) throws(CodecError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileIO.failure(path, "open") }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let error = FileIO.failure(path, "stat")
            close(fd)
            throw error
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw .ioFailure(path: path, operation: "read", reason: "not a regular file")
        }
        self.path = path
        descriptor = fd
        size = Int(status.st_size)
    }

    deinit {
        close(descriptor)
    }

    /// Up to `count` bytes from the start of the file (without moving the read position).
    package func prefix(_ count: Int) throws(CodecError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + filled, count - filled, off_t(filled))
            }
            if n > 0 {
                filled += n
            } else if n == 0 {
                break
            } else if errno != EINTR {
                throw FileIO.failure(path, "read")
            }
        }
        return Array(bytes.prefix(filled))
    }
}

/// The encoded bytes a decoder reads: in memory, or an open file read a chunk at a time.
package enum DecoderInput {
    /// Bytes in memory (the decoder reads them in place).
    case memory(InputBytes)
    /// A file.
    case file(InputFile)

    /// The first `count` bytes (fewer when there are fewer), for detecting the format.
    package func prefix(_ count: Int) throws(CodecError) -> [UInt8] {
        switch self {
        case .memory(let bytes):
            Array(UnsafeBufferPointer(start: bytes.pointer, count: Swift.min(count, bytes.count)))
        case .file(let file):
            try file.prefix(count)
        }
    }

    /// Every byte of the input at a stable address: the memory itself, or the file read into memory.
    package func inMemory() throws(CodecError) -> InputBytes {
        switch self {
        case .memory(let bytes): bytes
        case .file(let file): try InputBytes(file: file)
        }
    }

    /// Every byte of the input (a whole-picture codec such as libwebp needs them together).
    package func allBytes() throws(CodecError) -> [UInt8] {
        switch self {
        case .memory(let bytes):
            return Array(UnsafeBufferPointer(start: bytes.pointer, count: bytes.count))
        case .file(let file):
            var status = stat()
            guard fstat(file.descriptor, &status) == 0 else { throw FileIO.failure(file.path, "stat") }
            return try file.prefix(Int(status.st_size))
        }
    }

    /// The input's size in bytes (a file's when it was opened).
    package var byteCount: Int {
        switch self {
        case .memory(let bytes): bytes.count
        case .file(let file): file.size
        }
    }

    /// What a decode of this input may allocate (see ``DecodeBudget``).
    package var budget: DecodeBudget { DecodeBudget(inputBytes: byteCount) }

    /// The path of a file input, for messages.
    var path: String? {
        if case .file(let file) = self { file.path } else { nil }
    }
}
