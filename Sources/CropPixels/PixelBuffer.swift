#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An image in memory: `width × height` pixels of one ``PixelFormat``, row after row, each row `bytesPerRow` bytes.
///
/// `PixelBuffer` is a value type with copy-on-write storage: copies are cheap, and the bytes are duplicated only when
/// a shared buffer is mutated. Samples are stored interleaved (`RGBARGBA…`); 16-bit samples are `UInt16` in native
/// byte order; alpha is straight (not premultiplied).
///
/// Invariants, checked in every initialiser:
/// - `width ≥ 1`, `height ≥ 1`, `bytesPerRow ≥ width × bytesPerPixel`;
/// - `width × height` is within the ``PixelLimits`` given (default 200 megapixels), checked before any allocation;
/// - every size computation is overflow-checked.
///
/// Read and write pixels with the safe accessors (``subscript(x:y:channel:)``, ``pixel(x:y:)``); CropKit's own hot
/// loops use package-level unsafe row access behind small types that state their invariants.
public struct PixelBuffer: @unchecked Sendable {
    // @unchecked Sendable: a value type over copy-on-write storage; mutation goes through `makeUnique()` first, so a
    // buffer shared between threads is never written, only copied.
    /// Columns.
    public let width: Int
    /// Rows.
    public let height: Int
    /// Channel layout and bit depth.
    public let format: PixelFormat
    /// Bytes from the start of one row to the start of the next (at least `width × format.bytesPerPixel`).
    public let bytesPerRow: Int

    @usableFromInline
    var storage: Storage

    /// Allocates a buffer whose samples are all zero (transparent black when there is alpha).
    ///
    /// - Parameters:
    ///   - width: columns, at least 1.
    ///   - height: rows, at least 1.
    ///   - format: the channel layout and bit depth.
    ///   - bytesPerRow: the row stride; `nil` packs rows tightly.
    ///   - limits: rejects images above `limits.maxPixels` before allocating.
    /// - Throws: ``PixelError`` when a dimension is below 1, the stride is too small, the pixel count exceeds the
    ///   limit, or the byte count overflows.
    public init(
        width: Int, height: Int, format: PixelFormat, bytesPerRow: Int? = nil, limits: PixelLimits = .default
    ) throws(PixelError) {
        try limits.check(width: width, height: height)
        let bpp = format.bytesPerPixel
        let (minRow, rowOverflow) = width.multipliedReportingOverflow(by: bpp)
        guard !rowOverflow else { throw .sizeOverflow(width: width, height: height, bytesPerPixel: bpp) }
        let stride = bytesPerRow ?? minRow
        guard stride >= minRow else {
            throw .invalidDimensions(
                width: width, height: height,
                reason: "row stride \(stride) is smaller than \(minRow) bytes (width × \(bpp))")
        }
        let (total, overflow) = stride.multipliedReportingOverflow(by: height)
        guard !overflow else { throw .sizeOverflow(width: width, height: height, bytesPerPixel: bpp) }
        self.width = width
        self.height = height
        self.format = format
        self.bytesPerRow = stride
        self.storage = try Storage(byteCount: total, width: width, height: height, bytesPerPixel: bpp)
    }

    /// Creates a buffer from 8-bit samples, tightly packed, row after row (`width × height × channels` values).
    ///
    /// - Throws: ``PixelError/invalidDimensions(width:height:reason:)`` when the sample count does not match.
    public init(width: Int, height: Int, layout: ChannelLayout, samples: [UInt8]) throws(PixelError) {
        try self.init(width: width, height: height, format: PixelFormat(layout, .eight))
        guard samples.count == width * height * layout.channelCount else {
            throw .invalidDimensions(
                width: width, height: height,
                reason: "\(samples.count) samples given, \(width * height * layout.channelCount) expected")
        }
        samples.withUnsafeBytes { src in
            storage.bytes.copyMemory(from: src.baseAddress!, byteCount: src.count)
        }
    }

    /// Creates a buffer from 16-bit samples, tightly packed, row after row (`width × height × channels` values).
    ///
    /// - Throws: ``PixelError/invalidDimensions(width:height:reason:)`` when the sample count does not match.
    public init(width: Int, height: Int, layout: ChannelLayout, samples: [UInt16]) throws(PixelError) {
        try self.init(width: width, height: height, format: PixelFormat(layout, .sixteen))
        guard samples.count == width * height * layout.channelCount else {
            throw .invalidDimensions(
                width: width, height: height,
                reason: "\(samples.count) samples given, \(width * height * layout.channelCount) expected")
        }
        samples.withUnsafeBytes { src in
            storage.bytes.copyMemory(from: src.baseAddress!, byteCount: src.count)
        }
    }

    /// The pixel size.
    @inlinable
    public var pixelCount: Int { width * height }

    /// Bytes of sample data per row, without padding: `width × bytesPerPixel`.
    @inlinable
    public var bytesPerPackedRow: Int { width * format.bytesPerPixel }

    /// Channels per pixel.
    @inlinable
    public var channelCount: Int { format.channelCount }

    // MARK: Safe access

    /// The sample at a pixel and channel, as an integer (0…255 or 0…65535). Traps when out of bounds.
    public subscript(x x: Int, y y: Int, channel channel: Int) -> Int {
        get {
            let offset = sampleOffset(x: x, y: y, channel: channel)
            return format.depth == .eight
                ? Int(storage.bytes.load(fromByteOffset: offset, as: UInt8.self))
                : Int(storage.bytes.load(fromByteOffset: offset, as: UInt16.self))
        }
        set {
            precondition(newValue >= 0 && newValue <= format.depth.maxValue, "sample \(newValue) out of range")
            let offset = sampleOffset(x: x, y: y, channel: channel)
            makeUnique()
            if format.depth == .eight {
                storage.bytes.storeBytes(of: UInt8(newValue), toByteOffset: offset, as: UInt8.self)
            } else {
                storage.bytes.storeBytes(of: UInt16(newValue), toByteOffset: offset, as: UInt16.self)
            }
        }
    }

    /// All channels of one pixel. Traps when out of bounds.
    public func pixel(x: Int, y: Int) -> [Int] {
        (0..<channelCount).map { self[x: x, y: y, channel: $0] }
    }

    /// Sets all channels of one pixel. Traps when out of bounds or when `values` has the wrong count.
    public mutating func setPixel(x: Int, y: Int, _ values: [Int]) {
        precondition(values.count == channelCount, "expected \(channelCount) values, got \(values.count)")
        for (c, v) in values.enumerated() { self[x: x, y: y, channel: c] = v }
    }

    /// Every sample, tightly packed (padding removed), widened to `Int`. Meant for tests and small images.
    public var samples: [Int] {
        var out: [Int] = []
        out.reserveCapacity(pixelCount * channelCount)
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<channelCount { out.append(self[x: x, y: y, channel: c]) }
            }
        }
        return out
    }

    private func sampleOffset(x: Int, y: Int, channel: Int) -> Int {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)×\(height)")
        precondition(channel >= 0 && channel < channelCount, "channel \(channel) outside 0..<\(channelCount)")
        return y * bytesPerRow + (x * channelCount + channel) * format.depth.bytesPerSample
    }

    // MARK: Unsafe access for hot loops

    /// Calls `body` with read-only access to the rows. The pointers are valid only inside `body`.
    @inlinable
    package func withUnsafeRows<R, E: Error>(_ body: (UnsafePixelRows) throws(E) -> R) throws(E) -> R {
        let rows = UnsafePixelRows(
            base: storage.bytes, bytesPerRow: bytesPerRow, width: width, height: height, format: format)
        return try withExtendedLifetime(storage) { () throws(E) -> R in try body(rows) }
    }

    /// Calls `body` with mutable access to the rows, copying the storage first if it is shared. The pointers are
    /// valid only inside `body`.
    @inlinable
    package mutating func withUnsafeMutableRows<R, E: Error>(_ body: (UnsafePixelRows) throws(E) -> R) throws(E) -> R {
        makeUnique()
        let rows = UnsafePixelRows(
            base: storage.bytes, bytesPerRow: bytesPerRow, width: width, height: height, format: format)
        return try withExtendedLifetime(storage) { () throws(E) -> R in try body(rows) }
    }

    @inlinable
    mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) {
            storage = storage.copy()
        }
    }

    /// The heap storage behind a buffer: a single zero-initialised allocation, freed on deinit.
    @usableFromInline
    final class Storage {
        @usableFromInline let bytes: UnsafeMutableRawPointer
        @usableFromInline let byteCount: Int

        init(byteCount: Int, width: Int, height: Int, bytesPerPixel: Int) throws(PixelError) {
            // calloc returns already-zero pages from the kernel for large sizes, so nothing is touched up front.
            guard let p = calloc(max(byteCount, 1), 1) else {
                throw .sizeOverflow(width: width, height: height, bytesPerPixel: bytesPerPixel)
            }
            self.bytes = p
            self.byteCount = byteCount
        }

        private init(copying other: Storage) {
            guard let p = malloc(max(other.byteCount, 1)) else { fatalError("out of memory copying a pixel buffer") }
            p.copyMemory(from: other.bytes, byteCount: other.byteCount)
            self.bytes = p
            self.byteCount = other.byteCount
        }

        @usableFromInline
        func copy() -> Storage { Storage(copying: self) }

        deinit { free(bytes) }
    }
}

extension PixelBuffer: Equatable {
    /// Two buffers are equal when they have the same size, format and samples; row padding is ignored.
    public static func == (lhs: PixelBuffer, rhs: PixelBuffer) -> Bool {
        guard lhs.width == rhs.width, lhs.height == rhs.height, lhs.format == rhs.format else { return false }
        if lhs.storage === rhs.storage && lhs.bytesPerRow == rhs.bytesPerRow { return true }
        let rowBytes = lhs.bytesPerPackedRow
        return lhs.withUnsafeRows { a in
            rhs.withUnsafeRows { b in
                (0..<lhs.height).allSatisfy { memcmp(a.row($0), b.row($0), rowBytes) == 0 }
            }
        }
    }
}

extension PixelBuffer: CustomStringConvertible {
    public var description: String { "PixelBuffer(\(width)×\(height), \(format))" }
}
