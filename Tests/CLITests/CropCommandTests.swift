import CropKit
import Foundation
import Testing

/// `cropkit crop`: coordinates, turns, straighten, aspect and output size, checked on the written pixels.
@Suite struct CropCommandTests {
    /// A 240×160 position-coded PNG (displayed pixel (x, y) is (x, y, 128)) stored with `orientation`.
    private func positionPicture(in dir: String, orientation: Orientation = .up) throws -> String {
        let path = dir + "/in.png"
        try CLI.writePicture(path, width: 240, height: 160, orientation: orientation, color: positionColor)
        return path
    }

    @Test("--rect is in displayed coordinates, for every EXIF orientation", arguments: Orientation.allCases)
    func rectIsInDisplayedCoordinates(orientation: Orientation) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Given a picture stored with this orientation, displayed 240×160 with pixel (x, y) = (x, y, 128)
        let input = try positionPicture(in: dir, orientation: orientation)

        // When cropping 80×60 at (100, 50) of what a viewer shows
        let run = try CLI.run(["crop", input, "-o", "out.png", "--rect", "100,50,80,60"], in: dir)

        // Then the output is exactly that region, pixel for pixel
        #expect(run.status == 0, "\(run)")
        let out = try CLI.load(dir + "/out.png")
        #expect(out.width == 80 && out.height == 60)
        expectPixel(out.pixel(x: 0, y: 0), [100, 50, 128])
        expectPixel(out.pixel(x: 79, y: 0), [179, 50, 128])
        expectPixel(out.pixel(x: 0, y: 59), [100, 109, 128])
        expectPixel(out.pixel(x: 79, y: 59), [179, 109, 128])
    }

    @Test("--turn and --flip apply after the EXIF orientation")
    func turnAndFlipFollowOrientation() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = try positionPicture(in: dir, orientation: .rightTop)
        let rect = ["--rect", "100,50,80,60"]

        // A clockwise quarter turn brings the region's bottom-left corner to the top-left.
        let turned = try CLI.run(["crop", input, "-o", "turned.png", "--turn", "90"] + rect, in: dir)
        #expect(turned.status == 0, "\(turned)")
        let t = try CLI.load(dir + "/turned.png")
        #expect(t.width == 60 && t.height == 80)
        expectPixel(t.pixel(x: 0, y: 0), [100, 109, 128])
        expectPixel(t.pixel(x: 59, y: 0), [100, 50, 128])

        // A counter-clockwise one brings the top-right corner there.
        let back = try CLI.run(["crop", input, "-o", "back.png", "--turn", "-90"] + rect, in: dir)
        #expect(back.status == 0, "\(back)")
        expectPixel(try CLI.load(dir + "/back.png").pixel(x: 0, y: 0), [179, 50, 128])

        // A horizontal flip mirrors left and right; both flips make a half turn.
        let flipped = try CLI.run(["crop", input, "-o", "flip.png", "--flip", "horizontal"] + rect, in: dir)
        #expect(flipped.status == 0, "\(flipped)")
        expectPixel(try CLI.load(dir + "/flip.png").pixel(x: 0, y: 0), [179, 50, 128])
        let both = try CLI.run(
            ["crop", input, "-o", "both.png", "--flip", "horizontal", "--flip", "vertical"] + rect, in: dir)
        #expect(both.status == 0, "\(both)")
        expectPixel(try CLI.load(dir + "/both.png").pixel(x: 0, y: 0), [179, 109, 128])
    }

    @Test("--straighten with --rect keeps the rectangle's centre and aspect", arguments: [10.0, -10.0])
    func straightenKeepsRectCentre(angle: Double) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Given a pale 400×300 picture with a red disc of radius 6 centred at (250, 120)
        try CLI.writePicture(dir + "/in.png", width: 400, height: 300) { x, y in
            let dx = Double(x) + 0.5 - 250, dy = Double(y) + 0.5 - 120
            return dx * dx + dy * dy <= 36 ? [255, 0, 0] : [UInt8(150 + x % 100), UInt8(150 + y % 100), 200]
        }

        // When a 300×200 rect centred on the disc, too big to turn 10° inside the picture, is straightened
        let run = try CLI.run(
            ["crop", "in.png", "-o", "out.png", "--rect", "100,20,300,200", "--straighten=\(angle)"], in: dir)

        // Then the output keeps the 3:2 aspect, shrank (about 9 %) to avoid fill, and has the disc at its centre
        #expect(run.status == 0, "\(run)")
        let out = try CLI.load(dir + "/out.png")
        #expect(abs(Double(out.width) / Double(out.height) - 1.5) < 0.02, "\(out.width)×\(out.height)")
        #expect(out.width < 290 && out.width > 250, "\(out.width)×\(out.height)")
        var sumX = 0.0, sumY = 0.0, count = 0.0
        for y in 0..<out.height {
            for x in 0..<out.width {
                let p = out.pixel(x: x, y: y)
                if p[0] > 200 && p[1] < 90 && p[2] < 90 {
                    sumX += Double(x) + 0.5
                    sumY += Double(y) + 0.5
                    count += 1
                }
            }
        }
        try #require(count > 50, "the red disc is missing from the output")
        #expect(abs(sumX / count - Double(out.width) / 2) < 1.0, "disc centre x \(sumX / count) of \(out.width)")
        #expect(abs(sumY / count - Double(out.height) / 2) < 1.0, "disc centre y \(sumY / count) of \(out.height)")
    }

    @Test("--straighten without --rect gives the largest centred rectangle of the picture's aspect, without fill")
    func straightenWithoutRect() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Given a pale 360×240 picture (no channel below 150), stored sideways
        try CLI.writePicture(dir + "/in.png", width: 360, height: 240, orientation: .rightTop) { x, y in
            [UInt8(150 + x % 100), UInt8(150 + y % 100), 200]
        }

        let run = try CLI.run(["crop", "in.png", "-o", "out.png", "--straighten", "-7.5"], in: dir)

        // Then the output is exactly 3:2, as large as the turned picture allows, and no border pixel is fill
        #expect(run.status == 0, "\(run)")
        let out = try CLI.load(dir + "/out.png")
        let t = 7.5 * Double.pi / 180, (w, h) = (360.0, 240.0)
        let k = min(w / (w * cos(t) + h * sin(t)), h / (w * sin(t) + h * cos(t)))
        #expect(out.width * 2 == out.height * 3, "\(out.width)×\(out.height)")
        #expect(abs(Double(out.width) - w * k) <= 3, "\(out.width) vs \(w * k)")
        for x in 0..<out.width {
            for y in [0, out.height - 1] { #expect(out.pixel(x: x, y: y).prefix(3).allSatisfy { $0 >= 140 }) }
        }
        for y in 0..<out.height {
            for x in [0, out.width - 1] { #expect(out.pixel(x: x, y: y).prefix(3).allSatisfy { $0 >= 140 }) }
        }
    }

    @Test("--aspect W:H gives an exactly proportional output within --max-size")
    func aspectIsExact() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = try positionPicture(in: dir)
        let run = try CLI.run(
            ["crop", input, "-o", "out.png", "--aspect", "16:9", "--max-size", "200", "--straighten", "3"], in: dir)
        #expect(run.status == 0, "\(run)")
        let out = try CLI.load(dir + "/out.png")
        #expect(out.width * 9 == out.height * 16, "\(out.width)×\(out.height)")
        #expect(out.width <= 200 && out.width >= 160)
    }

    @Test("Crops keep source resolution, shrink to --max-size, and enlarge only with --allow-upscale")
    func outputSize() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = try positionPicture(in: dir)
        let rect = ["--rect", "20,30,100,50"]
        for (extra, expected) in [
            ([String](), (100, 50)),
            (["--max-size", "1000"], (100, 50)),
            (["--max-size", "40"], (40, 20)),
            (["--max-size", "1000", "--allow-upscale"], (1000, 500)),
        ] {
            let run = try CLI.run(["crop", input, "-o", "out.png", "--force"] + rect + extra, in: dir)
            #expect(run.status == 0, "\(extra): \(run)")
            let out = try CLI.load(dir + "/out.png")
            #expect(out.width == expected.0 && out.height == expected.1, "\(extra): \(out.width)×\(out.height)")
        }
        // The upscaled crop still starts at the rect's corner.
        expectPixel(try CLI.load(dir + "/out.png").pixel(x: 0, y: 0), [20, 30, 128], tolerance: 2)
    }

    @Test("A rect reaching outside the picture is clipped to it, with a warning")
    func rectPartlyOutsideIsClipped() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = try positionPicture(in: dir)
        let run = try CLI.run(["crop", input, "-o", "out.png", "--rect", "200,100,100,100"], in: dir)
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.contains("clipped to 200,100,40,60"), "\(run)")
        let out = try CLI.load(dir + "/out.png")
        #expect(out.width == 40 && out.height == 60)
        expectPixel(out.pixel(x: 0, y: 0), [200, 100, 128])
    }
}
