import CropCodecs
import CropKit
import CropTestSupport
import Foundation
import Testing

/// `cropkit analyze`: proposals a person can see, save and apply.
@Suite struct AnalyzeCommandTests {
    struct Report: Decodable {
        struct Proposal: Decodable {
            var measure: String
            var rect: [Double]
            var score: Double
            var recipe: Recipe
            var placedBy: String?
        }
        struct FoundFace: Decodable {
            var x: Double, y: Double, width: Double, height: Double, confidence: Double
        }
        var width: Int, height: Int
        var aspect: String
        var faces: [FoundFace]
        var proposals: [Proposal]
    }

    @Test(
        "analyze proposes the attention, entropy and face crops of an aspect; each recipe renders the proposed crop; with no one in the picture the face crop says attention placed it"
    )
    func proposals() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data(ImageCodec.encode(redDiscScene(x: 550, y: 150), as: .png)).write(
            to: URL(fileURLWithPath: dir + "/in.png"))

        let text = try CLI.run(["analyze", "in.png"], in: dir)
        #expect(text.status == 0, "\(text)")
        // All of the disc's interest fits in any square from x = 280 to 300; ties go to the one nearest the centre.
        #expect(text.stdout.contains("in.png: 600×300\n  straighten: "), "\(text.stdout)")
        #expect(text.stdout.contains("\n  attention 1:1: 300×300 at 2"), "\(text.stdout)")
        #expect(text.stdout.contains("keeps 100% of it"), "\(text.stdout)")

        let run = try CLI.run(["analyze", "in.png", "--aspect", "4:3", "--json"], in: dir)
        #expect(run.status == 0, "\(run)")
        let report = try JSONDecoder().decode(Report.self, from: Data(run.stdout.utf8))
        #expect(report.width == 600 && report.height == 300 && report.aspect == "4:3")
        #expect(report.proposals.map(\.measure) == ["attention", "entropy", "face"])
        #expect(report.faces.isEmpty)
        #expect(report.proposals.map(\.placedBy) == [nil, nil, "attention"])
        #expect(text.stdout.contains("\n  faces: none found\n"), "\(text.stdout)")
        #expect(text.stdout.contains("\n  face      1:1: 300×300 at 2"), "\(text.stdout)")
        #expect(text.stdout.contains("no face: placed by attention"), "\(text.stdout)")
        for proposal in report.proposals {
            let r = proposal.rect
            #expect(r[2] == 400 && r[3] == 300, "\(proposal.measure): \(r)")
            #expect(r[0] + r[2] >= 580 && r[0] <= 520, "\(proposal.measure) must keep the disc at 520…580: \(r)")
            #expect(proposal.score > 0.3 && proposal.score <= 1)
            let recipe = try JSONEncoder().encode(proposal.recipe)
            try recipe.write(to: URL(fileURLWithPath: dir + "/\(proposal.measure).json"))
            let apply = try CLI.run(
                ["apply", "\(proposal.measure).json", "in.png", "-o", "\(proposal.measure).png"], in: dir)
            #expect(apply.status == 0, "\(apply)")
            let out = try CLI.load(dir + "/\(proposal.measure).png")
            #expect(out.width == 400 && out.height == 300)
            #expect(redPixels(out) > 2500)
        }
        let bad = try CLI.run(["analyze", "in.png", "--aspect", "free"], in: dir)
        #expect(bad.status == 64)
        let missing = try CLI.run(["analyze", "none.png"], in: dir)
        #expect(missing.status == 1 && missing.stderr.contains("none.png"))
    }
}

extension AnalyzeCommandTests {
    @Test(
        "analyze lists the faces of a group photo in displayed pixels (a portrait stored turned too), and the face crop keeps them"
    )
    func faces() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fixtures = CLI.root + "/Tests/CropKitTests/Fixtures/faces"
        for name in ["2008_001009", "2008_001009-orientation6"] {
            let run = try CLI.run(["analyze", "\(fixtures)/\(name).jpg", "--json"], in: dir)
            #expect(run.status == 0, "\(run)")
            let report = try JSONDecoder().decode(Report.self, from: Data(run.stdout.utf8))
            #expect(report.width == 360 && report.height == 480)
            // training.xml's faces: 76 px at (145, 79) and 90 px at (125, 214).
            #expect(report.faces.count == 2, "\(report.faces)")
            for (label, face) in zip([(145.0, 79.0, 76.0), (125.0, 214.0, 90.0)], report.faces.sorted { $0.y < $1.y }) {
                #expect(
                    abs(face.x - label.0) < 20 && abs(face.y - label.1) < 20 && abs(face.width - label.2) < 25,
                    "\(face)")
                #expect(face.confidence >= 0)
            }
            let crop = try #require(report.proposals.first { $0.measure == "face" })
            #expect(crop.placedBy == "face" && crop.score == 1)
            #expect(crop.rect == [0, 0, 360, 360], "\(crop.rect)")
        }
        let text = try CLI.run(["analyze", "\(fixtures)/2008_001009.jpg"], in: dir)
        #expect(text.stdout.contains("\n  faces: 2 found\n"), "\(text.stdout)")
        #expect(text.stdout.contains("keeps 2 of 2 faces whole"), "\(text.stdout)")
        let bad = try CLI.run(["analyze", "\(fixtures)/2008_001009.jpg", "--smallest-face", "0"], in: dir)
        #expect(bad.status == 64 && bad.stderr.contains("--smallest-face"))
    }
}

/// `cropkit crop --aspect W:H --gravity …|--focus X,Y`: an aspect crop placed where the gravity says.
@Suite struct PlacedAspectCropTests {
    @Test("--gravity attention, entropy, an alignment or --focus place a 1:1 crop; the disc on the right is kept")
    func placed() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data(ImageCodec.encode(redDiscScene(x: 520, y: 150), as: .png)).write(
            to: URL(fileURLWithPath: dir + "/in.png"))
        for flags in [
            ["--gravity", "attention"], ["--gravity", "entropy"], ["--gravity", "face"], ["--gravity", "right"],
            ["--focus", "0.9,0.5"],
        ] {
            let run = try CLI.run(
                ["crop", "in.png", "-o", "out.png", "--aspect", "1:1", "--force", "--save-recipe", "r.json"] + flags,
                in: dir)
            #expect(run.status == 0, "\(flags): \(run)")
            let out = try CLI.load(dir + "/out.png")
            #expect(out.width == 300 && out.height == 300, "\(flags)")
            #expect(redPixels(out) > 2500, "\(flags) must keep the disc")
            let recipe = try JSONDecoder().decode(
                Recipe.self, from: Data(contentsOf: URL(fileURLWithPath: dir + "/r.json")))
            #expect(recipe.cropCenter.x > 0.6, "\(flags): \(recipe.cropCenter)")
        }
        let centred = try CLI.run(["crop", "in.png", "-o", "c.png", "--aspect", "1:1"], in: dir)
        #expect(centred.status == 0)
        #expect(redPixels(try CLI.load(dir + "/c.png")) == 0)
        for bad in [
            ["--gravity", "attention"], ["--aspect", "1:1", "--rect", "0,0,100,100", "--focus", "0.5,0.5"],
            ["--aspect", "original", "--gravity", "top"],
        ] {
            let run = try CLI.run(["crop", "in.png", "-o", "x.png"] + bad, in: dir)
            #expect(
                run.status == 64 && run.stderr.contains(": places an aspect W:H crop given no rect."), "\(bad): \(run)")
        }
    }
}
