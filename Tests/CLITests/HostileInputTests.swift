import Foundation
import Testing

/// The hostile set (`Tests/Hostile/make-hostile.py`): files of a few bytes whose chunk, box, marker, tag, IFD or
/// strip lengths claim up to terabytes. No input may cost more memory than its picture: every run ends in a clear
/// error (or a picture, where the format lets a reader skip the bad block) well under 64 MB at its peak, measured
/// from outside the process.
@Suite struct HostileInputTests {
    /// The peak resident memory each run must stay under.
    static let peakLimitKilobytes = 64 * 1024

    /// The hostile files, from the manifest the script writes.
    static let files: [String] = {
        let manifest =
            (try? String(contentsOfFile: CLI.root + "/Tests/Hostile/files/MANIFEST.txt", encoding: .utf8)) ?? ""
        return manifest.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap {
            $0.split(separator: "\t").first.map(String.init)
        }
    }()

    /// The three commands of the issue, each as it is usually run, and a resize to GIF (an animation's every frame).
    static func commands(_ file: String, in dir: String) -> [[String]] {
        let file = dir + "/" + file
        return [
            ["info", file], ["convert", file, "-o", dir + "/out.png", "--force"],
            ["thumbnail", file, "-o", dir + "/thumb.jpg", "--size", "64", "--force"],
            ["resize", file, "-o", dir + "/frames.gif", "--width", "16", "--force"],
        ]
    }

    @Test("The hostile set is there: at least one file of each kind the issue lists")
    func setIsComplete() {
        for prefix in [
            "png-", "jpeg-exif", "jpeg-icc", "jpeg-dht", "jpeg-dqt", "tiff-", "gif-", "webp-", "avif-", "heic-",
        ] {
            #expect(Self.files.contains { $0.hasPrefix(prefix) }, "no \(prefix) file in the manifest")
        }
        #expect(Self.files.count >= 40)
    }

    @Test(
        "Every hostile file: info, convert, thumbnail and a resize to GIF end with exit 0 or 1, one clear line, peak under 64 MB",
        arguments: files)
    func hostileFile(_ name: String) throws {
        try Self.expectClean(name, limitKilobytes: Self.peakLimitKilobytes) { dir in Self.commands(name, in: dir) }
    }

    /// What `analyze` and a thumbnail placed by faces may hold: 64 MB as above, plus the face detector's copy and
    /// its features (at most 24 bytes per pixel of a 3-megapixel copy, whatever the file claims).
    static let facePeakLimitKilobytes = 64 * 1024 + 24 * 3_000_000 / 1024

    @Test(
        "Every hostile file through analyze and a thumbnail by faces: exit 0 or 1, one clear line, peak under 64 MB plus the face detector's 72 MB",
        arguments: files)
    func hostileFaces(_ name: String) throws {
        try Self.expectClean(name, limitKilobytes: Self.facePeakLimitKilobytes) { dir in
            [
                ["analyze", dir + "/" + name, "--json"],
                [
                    "thumbnail", dir + "/" + name, "-o", dir + "/face.jpg", "--size", "64", "--gravity", "face",
                    "--force",
                ],
            ]
        }
    }

    /// Runs each of `commands` (given the folder holding a copy of hostile file `name`): exit 0 or 1 without a
    /// signal, peak RSS under `limitKilobytes`, and on failure a last line naming the command and the file, not an
    /// internal error.
    static func expectClean(_ name: String, limitKilobytes: Int, _ commands: (String) -> [[String]]) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.copyItem(atPath: CLI.root + "/Tests/Hostile/files/" + name, toPath: dir + "/" + name)
        for command in commands(dir) {
            let measured = try CLI.runMeasured(command, in: dir)
            #expect(
                !measured.signalled && (measured.run.status == 0 || measured.run.status == 1), "\(command): \(measured)"
            )
            #expect(measured.peakKilobytes < limitKilobytes, "\(command): \(measured)")
            if measured.run.status == 1 {
                let lines = measured.run.stderr.split(separator: "\n")
                // The error is the last line and names the command and the file (warnings may come before it).
                let last = String(lines.last ?? "")
                #expect(last.hasPrefix("cropkit \(command[0]): ") && last.contains(name), "\(command): \(measured)")
                #expect(!last.contains("internal"), "\(command): \(measured)")
            }
        }
    }

    @Test(
        "libpng's two crashers (a 57-byte PNG claiming a 1 GiB chunk): exit 1, the same message for all commands, peak under 64 MB"
    )
    func libpngCrashers() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for (name, chunk) in [("png-huge_pCAL_chunk.png", "pCAL"), ("png-huge_sCAL_chunk.png", "sCAL")] {
            try FileManager.default.copyItem(
                atPath: CLI.root + "/Tests/Hostile/files/" + name, toPath: dir + "/" + name)
            for command in Self.commands(name, in: dir) {
                let measured = try CLI.runMeasured(command, in: dir)
                #expect(measured.run.status == 1, "\(command): \(measured)")
                #expect(measured.peakKilobytes < Self.peakLimitKilobytes, "\(command): \(measured)")
                let expected =
                    "\(dir)/\(name): truncated PNG data: the \(chunk) chunk claims 1073741823 bytes, more than "
                    + "the 12 left in the file (the file is truncated or corrupt)\n"
                #expect(measured.run.stderr.hasSuffix(expected), "\(command): \(measured)")
            }
        }
    }
}
