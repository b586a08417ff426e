import CropGeometry
import CropTestSupport
import Testing

@testable import CropEngine

/// `CropState(sourceSize:orientation:crop:quarterTurns:flipHorizontal:flipVertical:straighten:aspect:)`, the
/// command line's one-step constructor.
@Suite("CropState from command-line arguments")
struct CropStateArgumentsTests {
    @Test("no rect, straightened 7.5°: the largest crop of the picture's ratio, centred, with no fill pixels")
    func straightenedWholePicture() throws {
        let s = try CropState(sourceSize: PixelSize(validWidth: 6000, height: 4000), crop: nil, straighten: 7.5)
        // Closed form: 6000×4000 · 2000 / (3000 sin 7.5° + 2000 cos 7.5°) ≈ 5053.7×3369.2, rendered as the largest
        // exact 3:2 multiple.
        #expect(abs(s.outputSize.width - 5053) <= 1 && abs(s.outputSize.height - 3369) <= 1)
        #expect(s.outputSize == PixelSize(validWidth: 5052, height: 3368))
        #expect(s.outputSize.width * 2 == s.outputSize.height * 3)
        #expect(s.aspectLock == .original)
        #expect(s.cropContentCenter == Point(x: 3000, y: 2000))
        #expect(Invariants.all(s) == nil)
        #expect(s.straightenAngle == 7.5)
    }

    @Test("no arguments at all is the identity")
    func identity() throws {
        for orientation in Orientation.allCases {
            let s = try CropState(
                sourceSize: PixelSize(validWidth: 4032, height: 3024), orientation: orientation, crop: nil)
            #expect(s.isIdentity)
            #expect(s.outputSize == orientation.displayedSize(of: PixelSize(validWidth: 4032, height: 3024)))
            #expect(s.renderPlan().isPixelExact)
        }
    }

    @Test("a rect with a 1:1 aspect gives the largest square centred in it; straightened it stays square")
    func squareInRect() throws {
        var s = try CropState(
            sourceSize: PixelSize(validWidth: 6000, height: 4000),
            crop: Rect(x: 1000, y: 500, width: 2000, height: 1200),
            aspect: .square)
        #expect(s.crop == Rect(x: 1400, y: 500, width: 1200, height: 1200))
        #expect(s.outputSize == PixelSize(validWidth: 1200, height: 1200))
        s = try CropState(
            sourceSize: PixelSize(validWidth: 6000, height: 4000), crop: Rect(x: 10, y: 20, width: 2000, height: 1200),
            straighten: -9, aspect: .square)
        #expect(s.outputSize.width == s.outputSize.height)
        #expect(s.cropContentCenter == Point(x: 1010, y: 620))
        #expect(Invariants.all(s) == nil)
    }

    @Test("the rect is in displayed coordinates; turns and flips keep the same region; the straighten keeps its centre")
    func orderOfSteps() throws {
        // Stored sideways (EXIF 6): displayed 6000×4000.
        let rect = Rect(x: 600, y: 400, width: 3000, height: 2000)
        let s = try CropState(
            sourceSize: PixelSize(validWidth: 4000, height: 6000), orientation: .rightTop, crop: rect, quarterTurns: 1,
            flipHorizontal: true, straighten: 4)
        // The same steps in an editor.
        var e = try CropState(sourceSize: PixelSize(validWidth: 4000, height: 6000), orientation: .rightTop)
        try e.setCrop(rect)
        e.rotate(.clockwise, aspectPolicy: .followPicture)
        e.flip(.horizontal)
        try e.setStraightenAngle(4)
        #expect(s == e)
        #expect(s.uprightSize == PixelSize(validWidth: 4000, height: 6000))
        // The rect's centre (2100, 1400) in the displayed picture, turned clockwise: (4000 − 1400, 2100) =
        // (2600, 2100) in the 4000×6000 picture; then mirrored: (4000 − 2600, 2100).
        #expect(s.cropContentCenter == Point(x: 1400, y: 2100))
        // The aspect is kept (turned with the picture) and the crop shrinks by the minimal zoom only.
        #expect(abs(s.crop.width / s.crop.height - 2000.0 / 3000) < 1e-12)
        #expect(Invariants.all(s) == nil)
        // Negative turns count counter-clockwise; a vertical flip is a horizontal one and a half turn.
        let left = try CropState(sourceSize: PixelSize(validWidth: 40, height: 30), crop: nil, quarterTurns: -1)
        let three = try CropState(sourceSize: PixelSize(validWidth: 40, height: 30), crop: nil, quarterTurns: 3)
        #expect(left == three)
        let vertical = try CropState(sourceSize: PixelSize(validWidth: 40, height: 30), crop: nil, flipVertical: true)
        let halfAndMirror = try CropState(
            sourceSize: PixelSize(validWidth: 40, height: 30), crop: nil, quarterTurns: 2,
            flipHorizontal: true)
        #expect(vertical == halfAndMirror)
    }

    @Test("a rect without an aspect keeps its own proportions and the lock free")
    func freeRect() throws {
        let s = try CropState(
            sourceSize: PixelSize(validWidth: 6000, height: 4000),
            crop: Rect(x: 100, y: 100, width: 3001, height: 1999),
            straighten: 2)
        #expect(s.aspectLock == .free)
        #expect(abs(s.crop.width / s.crop.height - 3001.0 / 1999) < 1e-12)
        #expect(s.cropContentCenter == Point(x: 1600.5, y: 1099.5))
    }

    @Test(
        "bad arguments throw GeometryError naming them",
        arguments: [
            (Rect(x: -1, y: 0, width: 100, height: 100), 0.0, "crop"),
            (Rect(x: 5000, y: 0, width: 1001, height: 100), 0, "crop"),
            (Rect(x: 0, y: 3999, width: 10, height: 2), 0, "crop"),
            (Rect(x: 10, y: 10, width: 0, height: 100), 0, "crop"),
            (Rect(x: 10, y: 10, width: 100, height: -5), 0, "crop"),
            (Rect(x: .nan, y: 10, width: 100, height: 100), 0, "crop"),
            (Rect(x: 10, y: 10, width: 100, height: 100), 45.5, "straighten"),
            (Rect(x: 10, y: 10, width: 100, height: 100), -90, "straighten"),
            (Rect(x: 10, y: 10, width: 100, height: 100), .nan, "straighten"),
            (Rect(x: 10, y: 10, width: 100, height: 100), .infinity, "straighten"),
        ])
    func badArguments(_ rect: Rect, _ angle: Double, _ name: String) {
        do {
            _ = try CropState(sourceSize: PixelSize(validWidth: 6000, height: 4000), crop: rect, straighten: angle)
            Issue.record("\(rect) at \(angle)° was accepted")
        } catch {
            switch error {
            case .invalidRect(let message): #expect(name == "crop" && message.hasPrefix("crop"), "\(message)")
            case .invalidValue(let named, _, _): #expect(named == name)
            default: Issue.record("unexpected \(error)")
            }
        }
    }

    @Test("the rect is checked against the displayed size, not the stored one")
    func displayedBounds() throws {
        // Stored 4000×6000, displayed 6000×4000: x up to 6000 is inside, y past 4000 is not.
        _ = try CropState(
            sourceSize: PixelSize(validWidth: 4000, height: 6000), orientation: .rightTop,
            crop: Rect(x: 5000, y: 0, width: 1000, height: 4000))
        #expect(throws: GeometryError.self) {
            try CropState(
                sourceSize: PixelSize(validWidth: 4000, height: 6000), orientation: .rightTop,
                crop: Rect(x: 0, y: 4000, width: 1000, height: 1000))
        }
    }
}
