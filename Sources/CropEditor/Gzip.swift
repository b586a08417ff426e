import CZlib

/// gzip (RFC 1952) through zlib, for the editor page's assets.
package enum Gzip {
    /// zlib's window bits for a gzip header and trailer instead of zlib's own: 15 + 16.
    private static let gzipWindow: Int32 = 15 + 16

    /// `bytes` gzip-compressed at zlib's best level (the assets are compressed once, when the server starts).
    package static func compress(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        guard
            deflateInit2_(
                &stream, Z_BEST_COMPRESSION, Z_DEFLATED, gzipWindow, 9, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { return nil }
        defer { deflateEnd(&stream) }
        let capacity = Int(deflateBound(&stream, UInt(bytes.count))) + 32
        return run(&stream, bytes, capacity: capacity) { deflate(&$0, Z_FINISH) }
    }

    /// The bytes of gzip data, or `nil` when it is not whole gzip data (at most `limit` bytes are produced).
    package static func decompress(_ bytes: [UInt8], limit: Int = 16 << 20) -> [UInt8]? {
        var stream = z_stream()
        guard inflateInit2_(&stream, gzipWindow, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return nil
        }
        defer { inflateEnd(&stream) }
        return run(&stream, bytes, capacity: limit) { inflate(&$0, Z_FINISH) }
    }

    /// Runs `step` once over all of `input` into a buffer of `capacity` bytes; the output when it reached the
    /// stream's end.
    private static func run(
        _ stream: inout z_stream, _ input: [UInt8], capacity: Int, _ step: (inout z_stream) -> Int32
    ) -> [UInt8]? {
        var input = input
        var output = [UInt8](repeating: 0, count: capacity)
        let status = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target -> Int32 in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = UInt32(target.count)
                return step(&stream)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        return Array(output.prefix(Int(stream.total_out)))
    }
}
