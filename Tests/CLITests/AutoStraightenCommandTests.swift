import CropCodecs
import CropKit
import CropTestSupport
import Foundation
import Testing

/// `--straighten auto` in `cropkit crop`, and the straighten `cropkit analyze` proposes.
@Suite struct AutoStraightenCommandTests {
    struct Report: Decodable {
        struct Straighten: Decodable {
            var angle: Double, confidence: Double, lines: Int, applied: Bool
            var recipe: Recipe
        }
        var straighten: Straighten
    }

    static func scene(_ dir: String, _ name: String, degrees: Double, lines: Bool = true) throws {
        let png = try ImageCodec.encode(
            tiltedScene(width: 480, height: 320, degrees: degrees, seed: 11, lines: lines), as: .png)
        try Data(png).write(to: URL(fileURLWithPath: dir + "/" + name))
    }

    @Test("crop --straighten auto levels a turned facade, says by how much, and saves the angle in the recipe")
    func levels() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.scene(dir, "in.png", degrees: 5)
        let run = try CLI.run(
            ["crop", "in.png", "-o", "out.png", "--straighten", "auto", "--save-recipe", "r.json"], in: dir)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("in.png: straightened "), "\(run)")
        #expect(run.stdout.contains("° counter-clockwise automatically ("), "\(run)")
        let recipe = try JSONDecoder().decode(
            Recipe.self, from: Data(contentsOf: URL(fileURLWithPath: dir + "/r.json")))
        #expect(abs(recipe.angle - 5) < 0.2, "\(recipe.angle)")
        let out = try CLI.load(dir + "/out.png")
        #expect(
            out.width < 480 && abs(Double(out.width) / Double(out.height) - 1.5) < 0.01, "\(out.width)×\(out.height)")
    }

    @Test("crop --straighten auto leaves a picture without straight lines alone, with a warning")
    func leavesAlone() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.scene(dir, "in.png", degrees: 5, lines: false)
        let run = try CLI.run(["crop", "in.png", "-o", "out.png", "--straighten", "auto"], in: dir)
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.contains("warning: in.png: auto-straighten"), "\(run)")
        #expect(run.stderr.contains("the picture is left as it is"), "\(run)")
        #expect(!run.stdout.contains("straightened"))
        let out = try CLI.load(dir + "/out.png")
        #expect(out.width == 480 && out.height == 320)
        let bad = try CLI.run(["crop", "in.png", "-o", "x.png", "--straighten", "level"], in: dir)
        #expect(bad.status == 64 && bad.stderr.contains("--straighten"), "\(bad)")
    }

    @Test("analyze gives the straighten with its confidence and a recipe, applied or not")
    func analyze() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.scene(dir, "tilted.png", degrees: -3.5)
        try Self.scene(dir, "blotches.png", degrees: -3.5, lines: false)
        let text = try CLI.run(["analyze", "tilted.png"], in: dir)
        #expect(text.stdout.contains("  straighten: 3."), "\(text)")
        #expect(text.stdout.contains("° clockwise, confidence 0."), "\(text)")
        #expect(text.stdout.contains("--straighten auto applies it"), "\(text)")
        let tilted = try JSONDecoder().decode(
            Report.self, from: Data(try CLI.run(["analyze", "tilted.png", "--json"], in: dir).stdout.utf8))
        #expect(abs(tilted.straighten.angle - -3.5) < 0.2 && tilted.straighten.applied, "\(tilted.straighten)")
        #expect(abs(tilted.straighten.recipe.angle - tilted.straighten.angle) < 0.001)
        let blotches = try JSONDecoder().decode(
            Report.self, from: Data(try CLI.run(["analyze", "blotches.png", "--json"], in: dir).stdout.utf8))
        #expect(!blotches.straighten.applied && blotches.straighten.confidence < 0.5, "\(blotches.straighten)")
    }
}
