import CropAnalysis
import CropGeometry
import Testing

/// `Face.window(_:keeping:in:)`, the rule `Gravity.face` places a fill by, over seeded random group photos.
@Suite("Face window")
struct FaceWindowTests {
    /// A small deterministic generator (SplitMix64).
    struct Random {
        var state: UInt64
        mutating func next() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
        mutating func next(_ range: ClosedRange<Double>) -> Double {
            range.lowerBound + next() * (range.upperBound - range.lowerBound)
        }
    }

    static func inside(_ inner: Rect, _ outer: Rect) -> Bool {
        inner.minX >= outer.minX - 1e-6 && inner.maxX <= outer.maxX + 1e-6 && inner.minY >= outer.minY - 1e-6
            && inner.maxY <= outer.maxY + 1e-6
    }

    @Test(
        "over 3,000 seeded pictures: the window lies inside the picture at the asked size, keeps every face when the heads fit together, else keeps the largest face whole when its head fits, and reports exactly the faces it keeps"
    )
    func invariants() {
        var random = Random(state: 44)
        var allKept = 0, largestKept = 0
        for _ in 0..<3000 {
            let bounds = Rect(x: 0, y: 0, width: random.next(200...2000), height: random.next(200...2000))
            let faces = (0..<Int(random.next(1...8.99))).map { _ -> Face in
                let side = random.next(20...300)
                return Face(
                    rect: Rect(
                        x: random.next(0...(bounds.width - 20)), y: random.next(0...(bounds.height - 20)),
                        width: side, height: side),
                    confidence: random.next(0...3))
            }
            let size = Size(width: random.next(50...2200), height: random.next(50...2200))
            guard let (window, kept) = Face.window(size, keeping: faces, in: bounds) else {
                Issue.record("no window for \(faces.count) faces")
                continue
            }
            #expect(abs(window.width - min(size.width, bounds.width)) < 1e-9)
            #expect(abs(window.height - min(size.height, bounds.height)) < 1e-9)
            #expect(Self.inside(window, bounds), "\(window) outside \(bounds)")
            let heads = faces.map { $0.head.intersection(bounds) ?? $0.rect }
            #expect(kept == faces.indices.filter { Self.inside(heads[$0], window) }.map { faces[$0] })
            let unionWidth = heads.map(\.maxX).max()! - heads.map(\.minX).min()!
            let unionHeight = heads.map(\.maxY).max()! - heads.map(\.minY).min()!
            if unionWidth <= window.width && unionHeight <= window.height {
                #expect(kept.count == faces.count, "all \(faces.count) heads fit in \(window) but \(kept.count) kept")
                allKept += 1
            }
            let largest = faces.indices.max {
                faces[$0].rect.width * faces[$0].rect.height < faces[$1].rect.width * faces[$1].rect.height
            }!
            if heads[largest].width <= window.width && heads[largest].height <= window.height {
                #expect(kept.contains(faces[largest]), "the largest face's head fits in \(window) but is not kept")
                largestKept += 1
            }
        }
        // Both rules were exercised, many times.
        #expect(allKept > 300 && largestKept > 1000, "\(allKept) \(largestKept)")
    }

    @Test("a head is the face box with half its height above and 15% below and on each side")
    func head() {
        let face = Face(rect: Rect(x: 100, y: 200, width: 40, height: 60), confidence: 1)
        #expect(face.head == Rect(x: 94, y: 170, width: 52, height: 99))
    }

    @Test(
        "two faces apart: a square too narrow for both keeps the larger, centred on its head; no face gives no window")
    func group() throws {
        let small = Face(rect: Rect(x: 50, y: 100, width: 40, height: 40), confidence: 2)
        let large = Face(rect: Rect(x: 700, y: 300, width: 100, height: 100), confidence: 1)
        let bounds = Rect(x: 0, y: 0, width: 1000, height: 600)
        let (window, kept) = try #require(
            Face.window(Size(width: 400, height: 400), keeping: [small, large], in: bounds))
        #expect(kept == [large])
        #expect(abs(window.midX - large.head.midX) < 1e-9 && abs(window.midY - large.head.midY) < 1e-9)
        let both = try #require(Face.window(Size(width: 900, height: 500), keeping: [small, large], in: bounds))
        #expect(both.kept.count == 2)
        #expect(Face.window(Size(width: 400, height: 400), keeping: [], in: bounds) == nil)
    }
}
