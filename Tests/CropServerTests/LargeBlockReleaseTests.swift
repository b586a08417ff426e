#if canImport(Glibc)
    import Glibc
    import Testing
    import CropServer

    @Suite("LargeBlockRelease: large blocks are mapped on their own even after a larger one was freed")
    struct LargeBlockReleaseTests {
        /// Whether glibc mapped `block` on its own: the IS_MMAPPED bit (2) of the size word in the chunk header just
        /// before the block.
        static func isMapped(_ block: UnsafeMutableRawPointer) -> Bool {
            (block - MemoryLayout<Int>.size).load(as: Int.self) & 2 != 0
        }

        /// Allocates blocks of `size` bytes until one is mapped on its own (the heaps' free space, which serves a request
        /// before any threshold is looked at, is then used up), at most `limit` of them; frees them all, returns whether
        /// one was.
        static func mapsOne(of size: Int, within limit: Int) -> Bool {
            var held: [UnsafeMutableRawPointer] = []
            defer { for block in held { free(block) } }
            for _ in 0..<limit {
                guard let block = malloc(size) else { return false }
                held.append(block)
                if isMapped(block) { return true }
            }
            return false
        }

        @Test("once a freed 4 MiB block has raised glibc's own threshold, 512 KiB blocks are still mapped on their own")
        func largeBlocksStayMapped() {
            // glibc alone: freeing a mapped 4 MiB block raises its threshold to 4 MiB, and 512 KiB blocks then come from
            // the heaps however many are asked for (this is what fails without LargeBlockRelease).
            _ = Self.mapsOne(of: 4 << 20, within: 256)
            #expect(LargeBlockRelease.enable())
            _ = Self.mapsOne(of: 4 << 20, within: 256)  // freeing it must not raise the fixed threshold
            #expect(Self.mapsOne(of: 512 << 10, within: 4096))
            #expect(Self.mapsOne(of: 200 << 10, within: 8192))
        }
    }
#endif
