import Dispatch

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A zero-filled, 64-byte-aligned scratch allocation, freed with its owner.
final class ScratchBuffer {
    let pointer: UnsafeMutableRawPointer
    let byteCount: Int

    init(byteCount: Int) {
        self.byteCount = Swift.max(byteCount, 64)
        pointer = UnsafeMutableRawPointer.allocate(byteCount: self.byteCount, alignment: 64)
        memset(pointer, 0, self.byteCount)
    }

    func typed<T>(_: T.Type) -> UnsafeMutablePointer<T> {
        pointer.assumingMemoryBound(to: T.self)
    }

    deinit { pointer.deallocate() }
}
