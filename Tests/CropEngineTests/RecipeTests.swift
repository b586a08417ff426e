import CropGeometry
import CropTestSupport
import Foundation
import Testing

@testable import CropEngine

@Suite("Recipe")
struct RecipeTests {
    @Test("the JSON shape is stable: versioned, content-centre fractions, angle, canonical turns and flips, aspect")
    func jsonShape() throws {
        var s = try CropState(sourceSize: PixelSize(validWidth: 4000, height: 3000))
        s.setAspectLock(.square)
        s.rotate(.clockwise, aspectPolicy: .followPicture)
        s.flip(.horizontal)
        try s.setStraightenAngle(0)
        try s.setCrop(Rect(x: 750, y: 1000, width: 1500, height: 1500))
        let json = String(decoding: s.recipe.json(), as: UTF8.self)
        // The crop's centre (1500, 1750) in the 3000×4000 upright picture.
        #expect(
            json == #"{"angle":0,"aspect":"1:1","crop":{"centerX":0.5,"centerY":0.4375,"height":0.375,"width":0.5},"#
                + #""flipHorizontal":true,"flipVertical":false,"quarterTurns":1,"version":1}"#)
    }

    @Test("omitted fields take their defaults; flipVertical is accepted and means a horizontal flip and a half turn")
    func defaults() throws {
        let minimal = try Recipe(json: Data(#"{"version":1}"#.utf8))
        #expect(minimal == (try Recipe()))
        let vertical = try Recipe(json: Data(#"{"version":1,"flipVertical":true,"quarterTurns":3}"#.utf8))
        let state = try CropState(recipe: vertical, sourceSize: PixelSize(validWidth: 40, height: 30))
        #expect(state.recipe.flipVertical == false)
        #expect(state.recipe.flipHorizontal == true && state.recipe.quarterTurns == 1)
        #expect(
            state.userOrientation
                == Orientation.up.rotatedClockwise().rotatedClockwise().rotatedClockwise()
                .flippedVertically())
    }

    @Test(
        "malformed or out-of-range recipes are rejected naming the field",
        arguments: [
            ("[]", "$"),
            ("not json", "$"),
            ("{}", "version"),
            (#"{"version":2}"#, "version"),
            (#"{"version":"1"}"#, "version"),
            (#"{"version":1,"crop":5}"#, "crop"),
            (#"{"version":1,"crop":{"centerX":0.5,"centerY":0.5,"width":1}}"#, "crop.height"),
            (#"{"version":1,"crop":{"centerX":"a","centerY":0.5,"width":1,"height":1}}"#, "crop.centerX"),
            (#"{"version":1,"crop":{"centerX":0.5,"centerY":null,"width":1,"height":1}}"#, "crop.centerY"),
            (#"{"version":1,"crop":{"centerX":0.5,"centerY":0.5,"width":0,"height":1}}"#, "crop.width"),
            (#"{"version":1,"crop":{"centerX":0.5,"centerY":0.5,"width":1,"height":-1}}"#, "crop.height"),
            (#"{"version":1,"crop":{"centerX":1e400,"centerY":0.5,"width":1,"height":1}}"#, "crop.centerX"),
            // The rectangle-origin form (x, y) is not read as a centre: the centre is reported missing.
            (#"{"version":1,"crop":{"x":0,"y":0,"width":1,"height":1}}"#, "crop.centerX"),
            (#"{"version":1,"angle":46}"#, "angle"),
            (#"{"version":1,"angle":"x"}"#, "angle"),
            (#"{"version":1,"quarterTurns":4}"#, "quarterTurns"),
            (#"{"version":1,"quarterTurns":-1}"#, "quarterTurns"),
            (#"{"version":1,"quarterTurns":1.5}"#, "quarterTurns"),
            (#"{"version":1,"flipHorizontal":"yes"}"#, "flipHorizontal"),
            (#"{"version":1,"flipVertical":2}"#, "flipVertical"),
            (#"{"version":1,"aspect":"3:0"}"#, "aspect"),
            (#"{"version":1,"aspect":"wide"}"#, "aspect"),
            (#"{"version":1,"aspect":7}"#, "aspect"),
        ])
    func malformed(_ json: String, _ field: String) {
        do {
            _ = try Recipe(json: Data(json.utf8))
            Issue.record("\(json) was accepted")
        } catch {
            guard case .invalidRecipe(let named, let reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(named == field, "\(json): \(reason)")
            #expect(!reason.isEmpty)
        }
    }

    @Test("a crop outside the straightened picture, or off its lock, is rejected when applied")
    func outOfRangeCrop() throws {
        let cases = [
            #"{"version":1,"crop":{"centerX":0.9,"centerY":0.5,"width":0.8,"height":1}}"#,
            #"{"version":1,"angle":10,"crop":{"centerX":0.5,"centerY":0.5,"width":1,"height":1}}"#,
            #"{"version":1,"aspect":"1:1","crop":{"centerX":0.5,"centerY":0.5,"width":1,"height":1}}"#,
            #"{"version":1,"crop":{"centerX":1.2,"centerY":0.5,"width":0.01,"height":0.01}}"#,
        ]
        for json in cases {
            let recipe = try Recipe(json: Data(json.utf8))
            do {
                _ = try CropState(recipe: recipe, sourceSize: PixelSize(validWidth: 4000, height: 3000))
                Issue.record("\(json) was accepted")
            } catch {
                guard case .invalidRecipe(let field, _) = error else {
                    Issue.record("\(error)")
                    continue
                }
                #expect(field == "crop")
            }
        }
        // A hair outside (a preview's rounding) is absorbed by the minimal zoom.
        let hair = try Recipe(cropCenter: Point(x: 0.5005, y: 0.5), cropSize: Size(width: 1.001, height: 1))
        let state = try CropState(recipe: hair, sourceSize: PixelSize(validWidth: 4000, height: 3000))
        #expect(state.cropIsInsidePicture())
        // The minimal zoom shrinks about the crop's own centre (2 px right of the picture's): 3996×2994.
        #expect(state.outputSize == PixelSize(validWidth: 3996, height: 2994))
    }

    @Test("a recipe made on a 1000-px preview selects the same region of the 6000-px original within one preview pixel")
    func previewToOriginal() throws {
        var rng = SplitMix64(seed: 21)
        let original = PixelSize(validWidth: 6000, height: 4000), preview = PixelSize(validWidth: 1000, height: 667)
        for i in 0..<10_000 {
            let orientation = rng.pick(Orientation.allCases)
            var s = try CropState(sourceSize: preview, orientation: orientation)
            for _ in 0..<rng.int(1...4) { try Random.operate(&s, &rng) }
            let applied = try CropState(
                recipe: Recipe(json: s.recipe.json()), sourceSize: original,
                orientation: orientation)
            // The selected regions (the crops), mapped to stored pixels, the original's scaled to the preview.
            let sx = Double(preview.width) / Double(original.width),
                sy = Double(preview.height) / Double(original.height)
            func selected(_ state: CropState, scaleX: Double, scaleY: Double) -> [Point] {
                let toStored = state.orientation.inverseTransform(storedSize: state.sourceSize.size)
                return state.crop.corners.map {
                    let p = toStored.apply(to: state.uprightPicture.toPicture($0))
                    return Point(x: p.x * scaleX, y: p.y * scaleY)
                }
            }
            for (a, b) in zip(selected(s, scaleX: 1, scaleY: 1), selected(applied, scaleX: sx, scaleY: sy))
            where a.distance(to: b) > 1 {
                Issue.record("case \(i): corner \(a) on the preview, \(b) on the original: \(s.crop) → \(applied.crop)")
                return
            }
            // What the original renders is that crop less the integer rounding: under one pixel, or under one
            // W×H step of an aspect lock (16:9 renders in 16×9-pixel steps).
            let step =
                applied.aspectRatio.map { Size(width: Double($0.width), height: Double($0.height)) }
                ?? Size(width: 1, height: 1)
            let out = applied.outputSize.size, crop = applied.crop.size
            if crop.width - out.width >= max(1, step.width) + 1e-6
                || crop.height - out.height >= max(1, step.height) + 1e-6
            {
                Issue.record("case \(i): output \(out) for crop \(crop) loses more than one step \(step)")
                return
            }
            if let failure = Invariants.all(applied) {
                Issue.record("case \(i): \(failure)")
                return
            }
        }
    }

    @Test("a recipe ignores the file's EXIF orientation: an upright preview's recipe fits a rotated original")
    func recipeAcrossOrientations() throws {
        // The preview was baked upright (orientation 1); the original is stored sideways with EXIF 6.
        var preview = try CropState(sourceSize: PixelSize(validWidth: 600, height: 400))
        try preview.setCrop(Rect(x: 60, y: 40, width: 300, height: 200))
        let original = try CropState(
            recipe: preview.recipe, sourceSize: PixelSize(validWidth: 4000, height: 6000), orientation: .rightTop)
        #expect(original.uprightSize == PixelSize(validWidth: 6000, height: 4000))
        #expect(original.crop == Rect(x: 600, y: 400, width: 3000, height: 2000))
        #expect(original.renderPlan().sourceRect == Rect(x: 400, y: 2400, width: 2000, height: 3000))
    }
}
