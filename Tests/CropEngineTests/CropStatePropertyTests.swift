import CropGeometry
import CropTestSupport
import Foundation
import Testing

@testable import CropEngine

/// Seeded random property tests: ≥ 10,000 cases each, every invariant after every operation.
@Suite("CropState properties")
struct CropStatePropertyTests {
    static let cases = 10_000

    /// Runs `body` for `cases` random states; `body` returns a failure description or nil. Stops at the first
    /// failure and reports its seed and case.
    func forEachCase(seed: UInt64, _ body: (inout SplitMix64, Int) throws -> String?) throws {
        var rng = SplitMix64(seed: seed)
        for i in 0..<Self.cases {
            if let failure = try body(&rng, i) {
                Issue.record("case \(i) (seed \(seed)): \(failure)")
                return
            }
        }
    }

    @Test("no fill pixels, exact aspect and minimal zoom after every operation of random sequences")
    func invariantsAfterEveryOperation() throws {
        try forEachCase(seed: 1) { rng, _ in
            var s = try Random.state(&rng)
            if let failure = Invariants.all(s) { return "initial \(s): \(failure)" }
            for step in 0..<4 {
                let before = s
                let op = try Random.operate(&s, &rng)
                if let failure = Invariants.all(s) { return "after \(op) (step \(step)) from \(before): \(failure)" }
            }
            return nil
        }
    }

    @Test("no fill pixels: the render plan's output corners map inside the stored image")
    func noFillPixels() throws {
        try forEachCase(seed: 2) { rng, _ in
            var s = try Random.state(&rng)
            try s.setStraightenAngle(rng.double(-45...45))
            return Invariants.noFillPixels(s)
        }
    }

    @Test("an aspect preset keeps the framing: the largest crop of the ratio inside the current one, same centre")
    func aspectPresetKeepsFraming() throws {
        var checked = 0
        try forEachCase(seed: 11) { rng, _ in
            var s = try Random.state(&rng)
            let before = s.uprightAllowed
            let lock = rng.pick(Array(Random.locks.dropFirst()))
            s.fitAspectLock(lock)
            if let failure = Invariants.all(s) { return "\(lock) from \(before): \(failure)" }
            guard let unit = s.lockUnit else { return "\(lock) has no ratio" }
            let after = s.uprightAllowed, scale = max(before.size.width, before.size.height)
            // Below the minimum side the engine grows the crop (and may move it); that case is the minimum's.
            guard min(after.size.width, after.size.height) > s.effectiveMinimumCropSize + 1e-6 else { return nil }
            checked += 1
            let e = 1e-9 * scale
            if abs(after.size.width * unit.height - after.size.height * unit.width) > 1e-9 * scale * unit.width {
                return "\(lock): size \(after.size) is not \(unit)"
            }
            if after.size.width > before.size.width + e || after.size.height > before.size.height + e {
                return "\(lock): \(after.size) does not fit in \(before.size)"
            }
            if max(after.size.width / before.size.width, after.size.height / before.size.height) < 1 - 1e-9 {
                return "\(lock): \(after.size) is not the largest in \(before.size)"
            }
            if after.center.distance(to: before.center) > e {
                return "\(lock): centre moved \(before.center) → \(after.center)"
            }
            return nil
        }
        #expect(checked > Self.cases / 2)
    }

    @Test("exact aspect: a W:H lock renders exactly k·W × k·H")
    func exactAspect() throws {
        try forEachCase(seed: 3) { rng, _ in
            var s = try Random.state(&rng)
            s.setAspectLock(rng.pick(Array(Random.locks.dropFirst())))
            try Random.operate(&s, &rng)
            if let failure = Invariants.exactAspect(s) { return failure }
            // Also scaled down for a maximum output size.
            guard let r = s.aspectRatio else { return nil }
            let bound = PixelSize(validWidth: rng.int(1...2000), height: rng.int(1...2000))
            let plan = s.renderPlan(maximumOutputSize: bound)
            let out = plan.outputSize, crop = s.crop.size, e = OutputSizing.tolerance
            let f = min(1, Double(bound.width) / crop.width, Double(bound.height) / crop.height)
            let k = min(f * (crop.width + e) / Double(r.width), f * (crop.height + e) / Double(r.height))
                .rounded(.down)
            guard k >= 1 else { return nil }  // no exactly proportional size fits: documented fallback
            if out != PixelSize(validWidth: Int(k) * r.width, height: Int(k) * r.height) {
                return "scaled output \(out) is not \(Int(k))·\(r) for crop \(crop) within \(bound)"
            }
            if out.width > bound.width || out.height > bound.height {
                return "plan \(out) exceeds maximum \(bound)"
            }
            return nil
        }
    }

    @Test("minimal zoom: straightening shrinks by the smallest factor (0.1 % more breaks the constraint)")
    func minimalZoom() throws {
        try forEachCase(seed: 4) { rng, _ in
            var s = try Random.state(&rng)
            try s.setStraightenAngle(rng.double(-45...45))
            if let failure = Invariants.minimalZoom(s) { return failure }
            // Straightening never changes the wanted crop; the allowed one is its uniform shrink about the centre
            // unless the minimum size forced a move.
            let wanted = s.wantedCrop, allowed = s.crop
            let scale = allowed.width / wanted.width
            let grewToMinimum = min(wanted.width, wanted.height) < s.effectiveMinimumCropSize
            if scale > 1 + 1e-12 && !grewToMinimum { return "allowed \(allowed) larger than wanted \(wanted)" }
            return nil
        }
    }

    @Test("there and back restores: straighten, turns, flips exactly; keep-ratio turns within 1e-6 px")
    func thereAndBack() throws {
        try forEachCase(seed: 5) { rng, _ in
            let s = try Random.state(&rng)
            var t = s
            try t.setStraightenAngle(rng.double(-45...45))
            try t.setStraightenAngle(s.straightenAngle)
            if t != s { return "straighten there and back: \(t) != \(s)" }
            t = s
            let direction = rng.pick(QuarterTurn.allCases)
            t.rotate(direction, aspectPolicy: .followPicture)
            t.rotate(direction == .clockwise ? .counterClockwise : .clockwise, aspectPolicy: .followPicture)
            if t != s { return "turn there and back (followPicture) changed the state" }
            t = s
            t.rotate(direction, aspectPolicy: .keepOutputRatio)
            t.rotate(direction == .clockwise ? .counterClockwise : .clockwise, aspectPolicy: .keepOutputRatio)
            if !t.wantedCrop.isApproximatelyEqual(to: s.wantedCrop, tolerance: 1e-6)
                || !t.crop.isApproximatelyEqual(to: s.crop, tolerance: 1e-6)
                || t.userOrientation != s.userOrientation || t.straightenAngle != s.straightenAngle
                || t.aspectRatio != s.aspectRatio
            {
                return "turn there and back (keepOutputRatio): \(t.crop) vs \(s.crop)"
            }
            t = s
            let axis = rng.pick(FlipAxis.allCases)
            t.flip(axis)
            t.flip(axis)
            if t != s { return "flip there and back changed the state" }
            // A zoom and its inverse about the same anchor, when nothing clamps, restore within rounding.
            t = s
            let anchor = t.crop.center
            try t.zoom(by: 1.25, anchor: anchor)
            try t.zoom(by: 0.8, anchor: anchor)
            if !t.crop.isApproximatelyEqual(to: s.crop, tolerance: 1e-6 * max(1, s.crop.width))
                && s.crop == s.wantedCrop
                && min(s.crop.width, s.crop.height) * 0.8 >= s.minimumCropSize
            {
                return "zoom there and back: \(t.crop) vs \(s.crop)"
            }
            return nil
        }
    }

    @Test("four quarter turns and two flips give the identity")
    func fourTurnsTwoFlips() throws {
        try forEachCase(seed: 6) { rng, _ in
            let s = try Random.state(&rng)
            let direction = rng.pick(QuarterTurn.allCases)
            var t = s
            for _ in 0..<4 { t.rotate(direction, aspectPolicy: .followPicture) }
            if t != s { return "four turns changed the state" }
            t = s
            for _ in 0..<4 { t.rotate(direction, aspectPolicy: .keepOutputRatio) }
            if !t.crop.isApproximatelyEqual(to: s.crop, tolerance: 1e-6) || t.userOrientation != s.userOrientation
                || t.aspectRatio != s.aspectRatio
            {
                return "four keep-ratio turns: \(t.crop) vs \(s.crop)"
            }
            t = s
            t.flip(.horizontal)
            t.flip(.vertical)
            t.flip(.horizontal)
            t.flip(.vertical)
            if t != s { return "two flips on each axis changed the state" }
            t = s
            t.flip(.horizontal)
            t.flip(.vertical)
            var half = s
            half.rotate(.clockwise, aspectPolicy: .followPicture)
            half.rotate(.clockwise, aspectPolicy: .followPicture)
            if t != half { return "flipping both ways is not a half turn" }
            return nil
        }
    }

    @Test("recipe round trip through JSON gives an equal state at the same resolution")
    func recipeRoundTrip() throws {
        try forEachCase(seed: 7) { rng, _ in
            let s = try Random.state(&rng)
            let json = s.recipe.json()
            let recipe: Recipe
            let back: CropState
            do {
                recipe = try Recipe(json: json)
                back = try CropState(
                    recipe: recipe, sourceSize: s.sourceSize, orientation: s.sourceOrientation,
                    minimumCropSize: s.minimumCropSize)
            } catch {
                return "\(error) for \(String(decoding: json, as: UTF8.self))"
            }
            if recipe != s.recipe { return "recipe changed through JSON" }
            let tolerance = 1e-9 * max(Double(s.uprightSize.width), Double(s.uprightSize.height))
            guard back.crop.isApproximatelyEqual(to: s.crop, tolerance: tolerance),
                back.userOrientation == s.userOrientation, back.straightenAngle == s.straightenAngle,
                back.aspectLock == s.aspectLock, back.outputSize == s.outputSize
            else {
                return "state \(s.crop) \(s.outputSize) came back as \(back.crop) \(back.outputSize)"
            }
            return Invariants.all(back)
        }
    }
}
