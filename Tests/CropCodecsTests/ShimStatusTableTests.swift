import Foundation
import Testing

@testable import CropCodecs

/// The one table of the C shims' statuses (`ck_status.h`) against `ShimStatus`, and every shim header against the
/// table: a shim that numbered a status itself, or gave one another's meaning, would have its failures misnamed.
@Suite("Shim status numbers")
struct ShimStatusTableTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    /// Each shared status by its name in `ck_status.h`, and the number Swift maps it to.
    static let table: [String: Int32] = [
        "CK_OK": ShimStatus.ok, "CK_ERR_CORRUPT": ShimStatus.corrupt, "CK_ERR_TRUNCATED": ShimStatus.truncated,
        "CK_ERR_STRICT_WARNING": ShimStatus.strictWarning, "CK_ERR_UNSUPPORTED": ShimStatus.unsupported,
        "CK_ERR_MEMORY": ShimStatus.memory, "CK_ERR_NOT_AN_IMAGE": ShimStatus.notAnImage,
        "CK_ERR_TOO_MANY_SCANS": ShimStatus.tooManyScans, "CK_ERR_USAGE": ShimStatus.usage, "CK_ERR_IO": ShimStatus.io,
        "CK_ERR_UNAVAILABLE": ShimStatus.unavailable,
    ]

    /// The shared status each shim's own name stands for (a name not listed is the shared name's own).
    static let aliases = [
        "PROFILE": "CK_ERR_CORRUPT", "NOT_JPEG": "CK_ERR_NOT_AN_IMAGE", "NOT_PNG": "CK_ERR_NOT_AN_IMAGE",
        "NOT_GIF": "CK_ERR_NOT_AN_IMAGE",
    ]

    @Test("ck_status.h numbers every status as ShimStatus does, each once")
    func sharedTable() throws {
        let text = try String(
            contentsOf: Self.sources.appendingPathComponent("CRuntimeLibrary/include/ck_status.h"), encoding: .utf8)
        var seen: [String: Int32] = [:]
        for match in text.matches(of: try Regex(#"(CK_(?:OK|ERR_[A-Z_]+))\s*=\s*(\d+)"#)) {
            seen[String(match.output[1].substring!)] = Int32(String(match.output[2].substring!))!
        }
        #expect(seen == Self.table)
        #expect(Set(seen.values).count == seen.count, "two statuses share a number")
    }

    @Test(
        "every shim header names its statuses by the shared table (no number of its own), and the run-time ones can say their library is missing"
    )
    func headersAgree() throws {
        let shims = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path).filter { $0.hasPrefix("C") }
        var checked = 0, headers = 0
        let named = try Regex(#"CK_([A-Z0-9]+)_(OK|ERR_([A-Z_]+))\s*=\s*([A-Z0-9_]+)"#)
        for shim in shims.sorted() {
            let include = Self.sources.appendingPathComponent(shim).appendingPathComponent("include")
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: include.path) else { continue }
            for file in files where file.hasSuffix("_shim.h") {
                let text = try String(contentsOf: include.appendingPathComponent(file), encoding: .utf8)
                var names: Set<String> = []
                for match in text.matches(of: named) {
                    let name = match.output[3].substring.map(String.init) ?? "OK"
                    let value = String(match.output[4].substring!)
                    let expected = Self.aliases[name] ?? (name == "OK" ? "CK_OK" : "CK_ERR_" + name)
                    #expect(value == expected, "\(file): \(name) = \(value), not \(expected)")
                    #expect(Self.table[expected] != nil, "\(file): \(name) has no shared status")
                    names.insert(name)
                    checked += 1
                }
                guard !names.isEmpty else { continue }
                headers += 1
                #expect(text.contains("#include \"ck_status.h\""), "\(file) does not include the shared table")
                #expect(names.contains("OK"), "\(file) has no OK")
                let runtime = text.contains("dlopen")
                #expect(
                    !runtime || names.contains("UNAVAILABLE"),
                    "\(file) opens its library at run time but has no UNAVAILABLE")
            }
        }
        // CJPEG, CPNG, CWebP, CHEIF, CAVIF, CGIF, CTIFF, CLCMS, CJXL, CJP2, CFont.
        #expect(headers == 11 && checked >= 66, "\(headers) headers, \(checked) statuses")
    }
}
