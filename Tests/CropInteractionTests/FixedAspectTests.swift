import CropGeometry
import CropTestSupport
import Foundation
import Testing

@testable import CropEngine
@testable import CropInteraction

/// `Configuration.fixedAspect`: a host's required ratio holds through every event.
@Suite("Fixed aspect")
struct FixedAspectTests {
    @Test("the session starts at the fixed ratio; aspect and swap events change nothing; turns and reset keep it")
    func scripted() throws {
        let ratio = try AspectRatio(1, 1)
        var s = try CropSession(
            state: CropState(sourceSize: PixelSize(validWidth: 4000, height: 3000)),
            viewportSize: Size(width: 900, height: 700), configuration: .init(fixedAspect: ratio))
        #expect(s.state.aspectLock == .ratio(ratio) && s.state.outputSize == PixelSize(validWidth: 3000, height: 3000))
        #expect(!s.canUndo)
        let before = s.state
        try s.handle(.aspect(.free))
        try s.handle(.swapAspect)
        #expect(s.state == before && !s.canUndo)
        try s.handle(.rotate(.clockwise, aspectPolicy: .followPicture))
        #expect(s.state.aspectLock == .ratio(ratio) && s.state.quarterTurns == 1)
        try s.handle(.reset)
        #expect(s.state.aspectLock == .ratio(ratio) && s.state.quarterTurns == 0)
        #expect(s.state.outputSize == PixelSize(validWidth: 3000, height: 3000))

        let portrait = try AspectRatio(4, 5)
        var t = try CropSession(
            state: CropState(sourceSize: PixelSize(validWidth: 4000, height: 3000)),
            viewportSize: Size(width: 900, height: 700), configuration: .init(fixedAspect: portrait))
        try t.handle(.rotate(.counterClockwise, aspectPolicy: .followPicture))  // would make it 5:4
        #expect(t.state.aspectLock == .ratio(portrait))
        #expect(abs(t.state.crop.width / t.state.crop.height - 0.8) < 1e-9)
    }

    @Test("the configuration round-trips through JSON with its ratio as \"W:H\"; other locks are refused")
    func coding() throws {
        let configuration = CropSession.Configuration(fixedAspect: try AspectRatio(16, 9))
        let json = try JSONEncoder().encode(configuration)
        #expect(String(decoding: json, as: UTF8.self).contains(#""fixedAspect":"16:9""#))
        #expect(try JSONDecoder().decode(CropSession.Configuration.self, from: json) == configuration)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(CropSession.Configuration.self, from: Data(#"{"fixedAspect":"free"}"#.utf8))
        }
    }

    @Test("over 300 seeded sessions of 12 random events, the crop keeps the fixed ratio and every invariant")
    func seeded() throws {
        var rng = SplitMix64(seed: 8080)
        let ratios = [(1, 1), (4, 5), (16, 9), (3, 2), (1, 3)]
        var checked = 0
        for run in 0..<300 {
            let (w, h) = rng.pick(ratios)
            let ratio = try AspectRatio(w, h)
            var s = try CropSession(
                state: try Random.state(&rng), viewportSize: Size(width: 800, height: 600),
                configuration: .init(fixedAspect: ratio))
            for step in 0..<12 {
                let p = { Point(x: rng.double(0...800), y: rng.double(0...600)) }
                switch rng.int(0...8) {
                case 0:
                    try s.handle(.pointerDown(id: 1, location: p(), intent: .auto))
                    try s.handle(.pointerMove(id: 1, location: p()))
                    try s.handle(.pointerUp(id: 1, location: p()))
                case 1: try s.handle(.aspect(rng.pick(Random.locks)))
                case 2: try s.handle(.swapAspect)
                case 3:
                    try s.handle(
                        .rotate(rng.pick(QuarterTurn.allCases), aspectPolicy: rng.pick(RotationAspectPolicy.allCases)))
                case 4: try s.handle(.flip(rng.pick(FlipAxis.allCases)))
                case 5: try s.handle(rng.bool() ? .reset : .resetCrop)
                case 6: try s.handle(.straighten(angle: rng.double(-45...45), isFinal: true))
                case 7:
                    try s.handle(
                        .resizeBy(
                            handle: rng.pick(CropHandle.allCases), dx: rng.double(-300...300),
                            dy: rng.double(-300...300)))
                default: try s.handle(rng.bool() ? .undo : .redo)
                }
                var failures: [String] = []
                if s.state.aspectLock != .ratio(ratio) { failures.append("lock \(s.state.aspectLock)") }
                let crop = s.state.crop
                if abs(crop.width * Double(h) - crop.height * Double(w)) > 1e-6 * crop.width * Double(h) {
                    failures.append("crop \(crop.width)×\(crop.height) is not \(w):\(h)")
                }
                if let broken = Invariants.all(s.state) { failures.append(broken) }
                if !failures.isEmpty {
                    Issue.record("run \(run) step \(step): \(failures)")
                    return
                }
                checked += 1
            }
        }
        #expect(checked == 3_600)
    }
}
