#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Makes the C allocator give the large blocks a render uses (pixel planes, scanline and coefficient buffers, the
/// encoded answer) back to the system when they are freed, instead of keeping them in the heap for later requests.
///
/// glibc maps blocks of 128 KiB or more on their own, but each time such a block is freed it raises that threshold to
/// the block's size (up to 32 MiB), so after the first few requests pixel buffers come from the heaps, one per
/// thread, and stay resident between requests however idle the server is. Fixing the threshold keeps every large
/// block mapped on its own: its memory leaves the process as soon as the render that needed it ends. Under the
/// service benchmark's small photo (4, then 16 connections; three runs) the peak resident size was 37.9 MB instead of
/// 40.5, at 239 requests a second instead of 251 (each large block is now mapped and zeroed anew).
///
/// It changes the whole process's allocator, so `cropkit serve` calls it at start; a library embedding
/// ``ImageService`` decides for itself.
public enum LargeBlockRelease {
    /// Blocks of `threshold` bytes or more are mapped and unmapped on their own from now on, whenever the heaps have
    /// no free block to serve them. Returns whether the setting reached glibc (which answers 1 to any value; false
    /// where the C library is not glibc).
    @discardableResult
    public static func enable(threshold: Int = 128 << 10) -> Bool {
        #if canImport(Glibc)
            // mallopt and M_MMAP_THRESHOLD (-3) come from <malloc.h>, which the Glibc module does not import.
            typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
            guard let mallopt = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return false }
            return unsafeBitCast(mallopt, to: Mallopt.self)(-3, Int32(clamping: threshold)) == 1
        #else
            return false  // musl and Darwin: their allocators return large blocks on free without being asked
        #endif
    }
}
