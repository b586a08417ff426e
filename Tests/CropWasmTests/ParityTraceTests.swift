import CropEngine
import CropGeometry
import CropInteraction
import CropTestSupport
import Foundation
import Testing

@testable import CropEditor
@testable import CropWasm

/// The engine in the page must be the engine: a seeded trace of sessions and events, with the native session's
/// view state after each, replayed through the committed `cropkit-engine.wasm` by `Tests/Wasm/replay.mjs` (Node),
/// which requires every number within 1e-9 of the native value and the page module's view objects equal to the
/// editor server's JSON.
@Suite("WebAssembly parity")
struct ParityTraceTests {
    /// The package's root folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Where the trace is written (`.ci/run` and `Tests/Wasm/replay.mjs` read it from there too).
    static let traceFolder = root.appendingPathComponent(".build/wasm-parity")

    @Test("10,000+ seeded events over every gesture and orientation replay identically in the WebAssembly module")
    func parity() throws {
        let trace = try ParityTrace.generate(seed: 0x5EED_CA7, sessions: 200, eventsPerSession: 60)

        // The trace covers what it claims to: every event kind, the 8 orientations, locks, fixed aspects, refusals.
        #expect(trace.eventCount >= 10_000)
        #expect(
            trace.kinds == Set(0..<NumericEvent.kinds.count),
            "kinds never generated: \(Set(0..<20).subtracting(trace.kinds))")
        #expect(trace.orientations == Set(1...8))
        #expect(trace.gestures.isSuperset(of: [.drawing, .moving, .resizing, .panning, .pinching, .straightening]))
        #expect(trace.refused > 0 && trace.refused < trace.eventCount / 10, "refused \(trace.refused)")
        #expect(trace.lockedStates > 1000 && trace.straightenedStates > 1000)

        try FileManager.default.createDirectory(at: Self.traceFolder, withIntermediateDirectories: true)
        try trace.binary.write(to: Self.traceFolder.appendingPathComponent("trace.bin"))
        try trace.viewsJSON.write(to: Self.traceFolder.appendingPathComponent("views.json"))

        // The same seed gives the same bytes (the trace is a fixture the module is held to).
        let again = try ParityTrace.generate(seed: 0x5EED_CA7, sessions: 200, eventsPerSession: 60)
        #expect(again.binary == trace.binary)

        guard let node = NodeRunner.path else {
            #expect(ProcessInfo.processInfo.environment["CI"] == nil, "CI needs node for the WebAssembly parity replay")
            return
        }
        let result = try NodeRunner.run(
            node,
            [
                Self.root.appendingPathComponent("Tests/Wasm/replay.mjs").path,
                Self.traceFolder.appendingPathComponent("trace.bin").path,
            ])
        #expect(result.status == 0, "replay failed:\n\(result.output)")
        #expect(result.output.contains("parity: \(trace.eventCount) events"), "\(result.output)")
    }

    @Test("the page module's event and gesture tables match the Swift ones")
    func tablesMatch() throws {
        let js = try String(
            contentsOf: Self.root.appendingPathComponent("Sources/CropEditor/Resources/web/cropkit-engine.js"),
            encoding: .utf8)
        for (name, code) in NumericEvent.kinds {
            #expect(js.contains("\(name): \(code),"), "cropkit-engine.js KINDS lacks \(name): \(code)")
        }
        let handles = CropHandle.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        #expect(js.contains("export const HANDLES = [\(handles)];"))
        let gestures = CropGesture.allCases.map { "\"\($0.rawValue)\"" }
        #expect(
            js.replacingOccurrences(of: "\n  ", with: " ").contains(
                "export const GESTURES = [\(gestures.joined(separator: ", "))];"))
        #expect(js.contains("export const STATE_COUNT = \(NumericViewState.count);"))
        #expect(js.contains("const PARAMETER_COUNT = \(SessionParameters.count);"))
    }

    @Test("every event survives its numeric form", arguments: 0..<8)
    func numericRoundTrip(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        for _ in 0..<500 {
            let decoded = ParityTrace.randomEvent(&rng, view: nil)
            let numbers = NumericEvent.encode(decoded)
            #expect(numbers.count == NumericEvent.count)
            let back = numbers.withUnsafeBufferPointer { NumericEvent.decode($0.baseAddress!) }
            #expect(back == decoded)
        }
    }

    @Test("numbers the module cannot read are refused, not guessed")
    func unreadable() {
        let bad: [[Double]] = [
            [20, 0, 0, 0, 0, 0, 0], [-1, 0, 0, 0, 0, 0, 0], [0.5, 0, 0, 0, 0, 0, 0], [.nan, 0, 0, 0, 0, 0, 0],
            [0, 1, 2, 3, 4, 0, 0], [0, .infinity, 2, 3, 0, 0, 0], [7, 2, 0, 0, 0, 0, 0], [8, 1.5, 0, 0, 0, 0, 0],
            [9, 2, 0, 3, 0, 0, 0], [9, 2, 3.5, 2, 0, 0, 0], [9, 3, 1, 1, 0, 0, 0], [12, 8, 1, 1, 0, 0, 0],
            [18, 2, 0, 0, 0, 0, 0],
        ]
        for row in bad {
            #expect(row.withUnsafeBufferPointer { NumericEvent.decode($0.baseAddress!) } == nil, "\(row)")
        }
    }

    @Test("session parameters out of range name their index; the engine's refusals are refusals")
    func sessionParameters() throws {
        func make(_ edit: (inout [Double]) -> Void) -> SessionParameters.Failure? {
            var n = SessionParameters.numbers(
                source: try! PixelSize(width: 400, height: 300), orientation: .up, minimumCropSize: 1,
                viewport: Size(width: 800, height: 600), insets: .zero, configuration: .init(), recipe: nil)
            edit(&n)
            do {
                _ = try n.withUnsafeBufferPointer { p throws(SessionParameters.Failure) in
                    try SessionParameters.session(p.baseAddress!)
                }
                return nil
            } catch { return error }
        }
        #expect(make { _ in } == nil)
        #expect(make { $0[0] = 0 } == .invalidParameter(index: 0))
        #expect(make { $0[1] = 1.5 } == .invalidParameter(index: 1))
        #expect(make { $0[2] = 9 } == .invalidParameter(index: 2))
        #expect(make { $0[13] = -1 } == .invalidParameter(index: 13))
        #expect(
            make {
                $0[19] = 3
                $0[20] = 0
            } == .invalidParameter(index: 19))
        if case .refused? = make({ $0[4] = -5 }) {} else { Issue.record("a negative viewport must be refused") }
        if case .refused? = make({
            $0[21] = 1
            $0[22] = 0.5
            $0[23] = 0.5
            $0[24] = 1
            $0[25] = 1
            $0[26] = 60
        }) {
        } else {
            Issue.record("a recipe angle of 60° must be refused")
        }
    }
}

/// Runs Node, when the machine has it.
enum NodeRunner {
    static let path: String? = ["/usr/bin/node", "/usr/local/bin/node"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    static func run(_ node: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: node)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
