import CropCodecs
import CropGeometry
import Foundation
import Testing

@testable import CropKit

/// docs/formats.md's table of every format, read against the codec registry.
@Suite("docs/formats.md")
struct FormatsDocTests {
    /// The rows of the table under "## Every format", by their first cell, each as its cells.
    static func rows() throws -> [String: [String]] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/formats.md"), encoding: .utf8)
        let section = try #require(text.components(separatedBy: "## Every format").dropFirst().first)
        let table = section.split(separator: "\n").drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
        #expect(
            table.first?.hasPrefix(
                "| format | read | write | animation | alpha | ICC | shrink-on-load | default quality | library |")
                == true)
        var rows: [String: [String]] = [:]
        for line in table.dropFirst(2) {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            rows[cells[0]] = cells
        }
        return rows
    }

    @Test(
        "one row per format, and each says what ImageFormat says: read, write, animation, default quality, shrink-on-load",
        arguments: ImageFormat.allCases)
    func row(_ format: ImageFormat) throws {
        let cells = try #require(try Self.rows()[format.displayName], "no row for \(format.displayName)")
        #expect(cells.count == 9)
        #expect(cells[1] == "yes")
        #expect(cells[2].hasPrefix("yes") == format.isWritable, "write")
        #expect((cells[3] == "read and write") == format.writesAnimation, "animation")
        #expect(cells[3].hasPrefix("read") == format.readsAnimation, "animation read")
        let quality = cells[7].split(separator: " ").first.flatMap { Int($0) }
        #expect(quality == format.defaultQuality, "default quality")
        #expect(!cells[6].hasPrefix("—") == format.shrinksOnLoad, "shrink-on-load")
    }

    @Test("no row names a format CropKit does not have")
    func noStrayRows() throws {
        #expect(Set(try Self.rows().keys) == Set(ImageFormat.allCases.map(\.displayName)))
    }
}
