import Foundation
import Testing

@testable import CropCodecs

/// The C shims' status numbers (`CK_JPEG_ERR_TRUNCATED`, `CK_JXL_ERR_MEMORY` … in ten headers) against the one table
/// `ShimStatus` maps to Swift: a shim that numbers a status differently would have its failures misnamed.
@Suite("Shim status numbers")
struct ShimStatusTableTests {
    /// Each status by the name the headers give it (after `CK_<LIBRARY>_ERR_`), and its number.
    static let table: [String: Int32] = [
        "OK": ShimStatus.ok, "CORRUPT": ShimStatus.corrupt, "PROFILE": ShimStatus.corrupt,
        "TRUNCATED": ShimStatus.truncated, "STRICT_WARNING": ShimStatus.strictWarning,
        "UNSUPPORTED": ShimStatus.unsupported, "MEMORY": ShimStatus.memory, "NOT_JPEG": ShimStatus.notAnImage,
        "NOT_PNG": ShimStatus.notAnImage, "NOT_GIF": ShimStatus.notAnImage, "TOO_MANY_SCANS": ShimStatus.tooManyScans,
        "USAGE": ShimStatus.usage, "IO": ShimStatus.io, "UNAVAILABLE": ShimStatus.unavailable,
    ]

    @Test("every shim header numbers its statuses as ShimStatus does, and the run-time ones can say their library is missing")
    func headersAgree() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let shims = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { $0.hasPrefix("C") }
        var checked = 0, headers = 0
        let pattern = try Regex(#"CK_([A-Z0-9]+)_(OK|ERR_([A-Z_]+))\s*=\s*(\d+)"#)
        for shim in shims.sorted() {
            let include = sources.appendingPathComponent(shim).appendingPathComponent("include")
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: include.path) else { continue }
            for file in files where file.hasSuffix("_shim.h") {
                let text = try String(contentsOf: include.appendingPathComponent(file), encoding: .utf8)
                var names: Set<String> = []
                for match in text.matches(of: pattern) {
                    let name = match.output[3].substring.map(String.init) ?? "OK"
                    let number = Int32(String(match.output[4].substring!))!
                    let expected = try #require(Self.table[name], "\(file): CK_…_\(name) has no entry in ShimStatus")
                    #expect(number == expected, "\(file): \(name) is \(number), ShimStatus says \(expected)")
                    names.insert(name)
                    checked += 1
                }
                guard !names.isEmpty else { continue }
                headers += 1
                #expect(names.contains("OK"), "\(file) has no OK")
                let runtime = text.contains("dlopen")
                #expect(!runtime || names.contains("UNAVAILABLE"), "\(file) opens its library at run time but has no UNAVAILABLE")
            }
        }
        // CJPEG, CPNG, CWebP, CHEIF, CAVIF, CGIF, CTIFF, CLCMS, CJXL, CJP2, CFont.
        #expect(headers == 11 && checked >= 66, "\(headers) headers, \(checked) statuses")
    }
}
