import CropPixels
import Foundation
import Testing

@testable import CropCodecs

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Decoders reading files a chunk at a time and encoders writing into atomic files as they go: the same pixels and
/// bytes as in memory, typed errors when the file fails, and no file left behind.
@Suite("File streaming")
struct FileStreamingTests {
    /// A picture large enough that its files span many 64 KB read and write chunks.
    static let imageResult = Result { try TestImages.smooth(width: 700, height: 500, layout: .rgba, seed: 5) }
    static var image: PixelBuffer { get throws { try imageResult.get() } }

    @Test("decoding a file gives the pixels, metadata and info of decoding its bytes (JPEG, progressive, PNG, Adam7)")
    func fileDecodeEqualsMemory() throws {
        let dir = try FileIOTests.scratchDirectory()
        let rgb = try TestImages.random(width: 700, height: 500, format: .rgb8, seed: 6)  // noise: large JPEGs
        let files: [(String, [UInt8])] = [
            ("a.jpg", try JPEGEncoder.encode(rgb, metadata: ImageMetadata(orientation: .rightTop))),
            ("b.jpg", try JPEGEncoder.encode(rgb, options: JPEGEncodeOptions(progressive: true))),
            ("c.png", try PNGEncoder.encode(try Self.image, metadata: ImageMetadata(orientation: .leftBottom))),
            ("d.png", try Fixtures.bytes("pngsuite/png/basi6a16.png")),
        ]
        for (name, bytes) in files {
            try FileIO.writeAtomically(bytes, toPath: dir + "/" + name)
            #expect(name == "d.png" || bytes.count > 65536, "\(name) is only \(bytes.count) bytes: one read chunk")
            let fromFile = try ImageCodec.decode(fileAtPath: dir + "/" + name)
            let fromMemory = try ImageCodec.decode(bytes)
            #expect(fromFile.pixels == fromMemory.pixels, "\(name)")
            #expect(fromFile.metadata == fromMemory.metadata, "\(name)")
            #expect(fromFile.info == fromMemory.info, "\(name)")
            #expect(try ImageInfo.read(fileAtPath: dir + "/" + name) == fromMemory.info, "\(name)")
        }
    }

    @Test("a truncated file fails as truncated bytes do, and a scaled JPEG decode reads the same from a file")
    func truncatedAndScaledFiles() throws {
        let dir = try FileIOTests.scratchDirectory()
        let jpeg = try JPEGEncoder.encode(try Self.image.flattened(over: .black))
        try FileIO.writeAtomically(Array(jpeg.prefix(jpeg.count / 3)), toPath: dir + "/cut.jpg")
        let options = DecodeOptions(strict: true)
        let fileError = #expect(throws: CodecError.self) {
            try ImageCodec.decode(fileAtPath: dir + "/cut.jpg", options: options)
        }
        let memoryError = #expect(throws: CodecError.self) {
            try ImageCodec.decode(Array(jpeg.prefix(jpeg.count / 3)), options: options)
        }
        #expect(fileError == memoryError)
        try FileIO.writeAtomically(jpeg, toPath: dir + "/whole.jpg")
        let scaled = DecodeOptions(jpegScale: .quarter)
        #expect(
            try ImageCodec.decode(fileAtPath: dir + "/whole.jpg", options: scaled).pixels
                == ImageCodec.decode(jpeg, options: scaled).pixels)
    }

    /// Quality 95 everywhere: outputs of more than 64 KB, so that the encoders write to the file more than once.
    /// (JPEG XL lossless: its lossy file of the test picture is 16 KB.)
    static let fine = EncodeOptions(
        jpeg: JPEGEncodeOptions(quality: 95), webp: WebPEncodeOptions(quality: 95),
        heif: HEIFEncodeOptions(quality: 95),
        jxl: JXLEncodeOptions(lossless: true, effort: 2))

    @Test("an encoder writing into an atomic file produces the bytes it would produce in memory (every format)")
    func fileEncodeEqualsMemory() throws {
        let dir = try FileIOTests.scratchDirectory()
        let image = try Self.image
        for format in ImageFormat.writable {
            let path = dir + "/out.\(format.fileExtension)"
            let file = try AtomicFile(path: path, overwrite: false)
            let encoder = try ImageCodec.makeEncoder(
                format: format, width: image.width, height: image.height, inputFormat: image.format,
                options: Self.fine, output: file)
            try encoder.writeRows(from: image, startRow: 0, count: image.height)
            let lent = try encoder.finish { bytes throws(CodecError) in bytes.count }
            #expect(lent == 0)  // the bytes are in the file, not in memory
            #expect(!FileManager.default.fileExists(atPath: path))  // not before the commit
            try file.commit()
            let written = try FileIO.readFile(atPath: path)
            #expect(written == (try ImageCodec.encode(image, as: format, options: Self.fine)), "\(format)")
            #expect(encoder.bytesWritten == written.count)
            #expect(written.count > 65536)
        }
        #expect(
            try FileIOTests.contents(dir) == [
                "out.avif", "out.gif", "out.heic", "out.jpg", "out.jxl", "out.png", "out.webp",
            ])
    }

    @Test("an uncommitted atomic file leaves nothing; a closed one cannot commit; an existing name is kept")
    func atomicFileLifecycle() throws {
        let dir = try FileIOTests.scratchDirectory()
        do {
            let file = try AtomicFile(path: dir + "/a.bin", overwrite: false)
            #expect(write(file.descriptor, "x", 1) == 1)
            #expect(try FileIOTests.contents(dir).count == 1)  // the temporary file
        }
        #expect(try FileIOTests.contents(dir).isEmpty)
        let abandoned = try AtomicFile(path: dir + "/b.bin", overwrite: false)
        abandoned.abandon()
        #expect(throws: CodecError.self) { try abandoned.commit() }
        #expect(try FileIOTests.contents(dir).isEmpty)
        try FileIO.writeAtomically([1], toPath: dir + "/c.bin")
        #expect(throws: CodecError.fileExists(path: dir + "/c.bin")) {
            try AtomicFile(path: dir + "/c.bin", overwrite: false)
        }
        let racing = try AtomicFile(path: dir + "/d.bin", overwrite: false)
        try FileIO.writeAtomically([2], toPath: dir + "/d.bin")  // someone else took the name meanwhile
        #expect(throws: CodecError.fileExists(path: dir + "/d.bin")) { try racing.commit() }
        #expect(try FileIO.readFile(atPath: dir + "/d.bin") == [2])
        #expect(try FileIOTests.contents(dir) == ["c.bin", "d.bin"])
    }

    @Test("a file that fails under the codec is an I/O error naming it, for reads and for writes")
    func ioFailures() throws {
        let dir = try FileIOTests.scratchDirectory()
        let image = try Self.image
        for format in ImageFormat.writable {
            let file = try AtomicFile(path: dir + "/broken.\(format.fileExtension)", overwrite: false)
            // Every write now fails (EBADF): the descriptor becomes a read-only one. (Closing it instead would let a
            // test running in parallel be given the same number, and the encoder would write into that test's file.)
            let readOnly = open("/dev/null", O_RDONLY)
            #expect(dup2(readOnly, file.descriptor) == file.descriptor)
            close(readOnly)
            let error = #expect(throws: CodecError.self) {
                let encoder = try ImageCodec.makeEncoder(
                    format: format, width: image.width, height: image.height, inputFormat: image.format,
                    options: Self.fine, output: file)
                try encoder.writeRows(from: image, startRow: 0, count: image.height)
                try encoder.finish { _ throws(CodecError) in }
            }
            guard case .ioFailure(let path, "write", _) = error else {
                Issue.record("\(format): \(String(describing: error))")
                continue
            }
            #expect(path == dir + "/broken.\(format.fileExtension)")
        }
        // More than the decoder reads with the header, so that reading the rest reaches the file again.
        try FileIO.writeAtomically(
            try JPEGEncoder.encode(image.flattened(over: .white), options: Self.fine.jpeg), toPath: dir + "/in.jpg")
        let input = try InputFile(path: dir + "/in.jpg")
        let decoder = try ImageCodec.makeDecoder(input: .file(input))
        // Reading the rest now fails (EBADF): the descriptor becomes a write-only one (not closed: see above).
        let writeOnly = open("/dev/null", O_WRONLY)
        #expect(dup2(writeOnly, input.descriptor) == input.descriptor)
        close(writeOnly)
        let error = #expect(throws: CodecError.self) { _ = try decoder.decodeAll() }
        guard case .ioFailure(dir + "/in.jpg", "read", _) = error else {
            Issue.record("read: \(String(describing: error))")
            return
        }
        #expect(throws: CodecError.self) { try InputFile(path: dir) }  // a directory is not a regular file
        #expect(throws: CodecError.self) { try InputFile(path: "/dev/null") }
    }
}
