import Foundation
import Testing

@testable import CropCodecs

@Suite("File I/O")
struct FileIOTests {
    /// A fresh, empty directory for one test.
    static func scratchDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("cropkit-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func contents(_ directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    }

    @Test("writes a new file with exactly the bytes, leaving nothing else behind")
    func writesNew() throws {
        let dir = try Self.scratchDirectory()
        let bytes: [UInt8] = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try FileIO.writeAtomically(bytes, toPath: dir + "/out.bin")
        #expect(try FileIO.readFile(atPath: dir + "/out.bin") == bytes)
        #expect(try Self.contents(dir) == ["out.bin"])
        let prefix = try FileIO.readPrefix(ofFileAtPath: dir + "/out.bin", maxBytes: 10)
        #expect(prefix.bytes == Array(bytes.prefix(10)))
        #expect(!prefix.isWholeFile)
        #expect(try FileIO.readPrefix(ofFileAtPath: dir + "/out.bin", maxBytes: 1 << 20).isWholeFile)
    }

    @Test("refuses to overwrite an existing file unless told to")
    func overwrite() throws {
        let dir = try Self.scratchDirectory()
        let path = dir + "/out.bin"
        try FileIO.writeAtomically([1, 2, 3], toPath: path)
        #expect(throws: CodecError.fileExists(path: path)) { try FileIO.writeAtomically([9], toPath: path) }
        #expect(try FileIO.readFile(atPath: path) == [1, 2, 3])
        #expect(try Self.contents(dir) == ["out.bin"])
        try FileIO.writeAtomically([9, 8], toPath: path, overwrite: true)
        #expect(try FileIO.readFile(atPath: path) == [9, 8])
        #expect(try Self.contents(dir) == ["out.bin"])
    }

    /// Runs the atomic writer with a failure injected after the data was written and synced.
    static func writeFailingBeforeCommit(_ bytes: [UInt8], _ path: String, overwrite: Bool) throws(CodecError) {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(CodecError) in
                try FileIO.writeAtomically(buffer, toPath: path, overwrite: overwrite, failBeforeCommit: true)
            }
        }
        try result.get()
    }

    @Test("a failure before the commit leaves no partial file and keeps an existing one intact")
    func failureLeavesNothing() throws {
        let dir = try Self.scratchDirectory()
        let path = dir + "/out.bin"
        #expect(throws: CodecError.self) {
            try Self.writeFailingBeforeCommit([UInt8](repeating: 1, count: 5000), path, overwrite: false)
        }
        #expect(try Self.contents(dir).isEmpty)
        try FileIO.writeAtomically([7], toPath: path)
        #expect(throws: CodecError.self) {
            try Self.writeFailingBeforeCommit([1, 1, 1], path, overwrite: true)
        }
        #expect(try FileIO.readFile(atPath: path) == [7])
        #expect(try Self.contents(dir) == ["out.bin"])
    }

    @Test("I/O errors name the path and the reason")
    func errors() throws {
        let dir = try Self.scratchDirectory()
        let missing = dir + "/no/such/dir/out.jpg"
        do {
            try FileIO.writeAtomically([1], toPath: missing)
            Issue.record("wrote into a missing directory")
        } catch {
            guard case .ioFailure(let path, _, let reason) = error else { throw error }
            #expect(path == missing)
            #expect(reason.contains("No such file"))
        }
        #expect(try Self.contents(dir).isEmpty)
        #expect(
            throws: CodecError.ioFailure(
                path: dir + "/nope.jpg", operation: "open", reason: "No such file or directory")
        ) {
            try FileIO.readFile(atPath: dir + "/nope.jpg")
        }
        #expect(throws: CodecError.ioFailure(path: dir, operation: "read", reason: "not a regular file")) {
            try FileIO.readFile(atPath: dir)
        }
        #expect(throws: CodecError.ioFailure(path: dir + "/", operation: "write", reason: "not a file name")) {
            try FileIO.writeAtomically([1], toPath: dir + "/")
        }
    }
}
