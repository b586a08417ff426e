import CropKit
import Testing

@testable import CropCLI

/// The values the commands parse: each either parses completely or is refused.
@Suite struct ArgumentTypesTests {
    @Test("--rect parses X,Y,W,H (fractions and spaces allowed) and refuses anything else")
    func rect() throws {
        #expect(RectArgument(argument: "10,20,300,200")?.rect == Rect(x: 10, y: 20, width: 300, height: 200))
        #expect(RectArgument(argument: "0.5, 1.5, 2, 3")?.rect == Rect(x: 0.5, y: 1.5, width: 2, height: 3))
        #expect(RectArgument(argument: "-5,-5,10,10")?.rect == Rect(x: -5, y: -5, width: 10, height: 10))
        for bad in ["1,2,3", "1,2,3,4,5", "a,b,c,d", "0,0,0,10", "0,0,10,-1", "0,0,inf,1", "0,0,nan,1", ""] {
            #expect(RectArgument(argument: bad) == nil, "\(bad)")
        }
        #expect(RectArgument(argument: "10,20.5,300,200")?.description == "10,20.5,300,200")
    }

    @Test("--scale, --early-stop and --subsampling read the library's own enums, spelled as --help lists them")
    func libraryEnums() throws {
        #expect(JPEGScale.allValueStrings == ["1", "2", "4", "8"])
        #expect(["1", "2", "4", "8"].map { JPEGScale(argument: $0) } == [.full, .half, .quarter, .eighth])
        for bad in ["3", "16", "0", "1/2", "half", ""] { #expect(JPEGScale(argument: bad) == nil, "\(bad)") }

        #expect(JPEGEarlyStop.allValueStrings == ["off", "exact", "dc"])
        #expect(["off", "exact", "dc"].map { JPEGEarlyStop(argument: $0) } == [.off, .exact, .dcOnly])
        for bad in ["dcOnly", "DC", "on", ""] { #expect(JPEGEarlyStop(argument: bad) == nil, "\(bad)") }

        #expect(SubsamplingArgument.allValueStrings == ["auto", "444", "422", "420"])
        #expect(
            ["auto", "444", "422", "420"].map { SubsamplingArgument(argument: $0)?.value } == [
                nil, .s444, .s422, .s420,
            ])
        #expect(
            ["auto", "444", "422", "420"].map { SubsamplingArgument(argument: $0)?.description }
                == SubsamplingArgument.allValueStrings)
        for bad in ["4:4:4", "411", "none", ""] { #expect(SubsamplingArgument(argument: bad) == nil, "\(bad)") }
    }

    @Test("--size parses WxH and W×H")
    func size() throws {
        #expect(SizeArgument(argument: "800x600")?.size == PixelSize(validWidth: 800, height: 600))
        #expect(SizeArgument(argument: "800X600")?.size == PixelSize(validWidth: 800, height: 600))
        #expect(SizeArgument(argument: "800×600")?.size == PixelSize(validWidth: 800, height: 600))
        for bad in ["800", "0x10", "10x0", "-1x5", "10x10x10", "axb", "10by10"] {
            #expect(SizeArgument(argument: bad) == nil, "\(bad)")
        }
    }

    @Test("--turn takes multiples of 90 in −270…270 and gives clockwise quarter turns 0…3")
    func turn() throws {
        let expected = ["0": 0, "90": 1, "180": 2, "270": 3, "-90": 3, "-180": 2, "-270": 1]
        for (text, turns) in expected { #expect(TurnArgument(argument: text)?.quarterTurns == turns, "\(text)") }
        for bad in ["45", "360", "-360", "ninety", "90.0"] { #expect(TurnArgument(argument: bad) == nil, "\(bad)") }
    }

    @Test("--background parses hex colours and names")
    func color() throws {
        #expect(ColorArgument(argument: "#ff8000")?.color == PixelColor(red: 255, green: 128, blue: 0))
        #expect(ColorArgument(argument: "f80")?.color == PixelColor(red: 255, green: 136, blue: 0))
        #expect(ColorArgument(argument: "#00000080")?.color == PixelColor(red: 0, green: 0, blue: 0, alpha: 128))
        #expect(ColorArgument(argument: "Transparent")?.color == .transparent)
        #expect(ColorArgument(argument: "white")?.color == .white)
        for bad in ["#12", "#12345", "#gggggg", "red", ""] { #expect(ColorArgument(argument: bad) == nil, "\(bad)") }
    }

    @Test("--radius is a number ≥ 0 or circle; --aspect is W:H, original or free")
    func radiusAndAspect() throws {
        #expect(RadiusArgument(argument: "circle")?.radius == .circle)
        #expect(RadiusArgument(argument: "12.5")?.radius == .pixels(12.5))
        #expect(RadiusArgument(argument: "-1") == nil && RadiusArgument(argument: "round") == nil)
        #expect(AspectArgument(argument: "16:9")?.lock == (try AspectLock.ratio(16, 9)))
        #expect(AspectArgument(argument: "4:2")?.lock == (try AspectLock.ratio(2, 1)))
        #expect(AspectArgument(argument: "original")?.lock == .original)
        #expect(AspectArgument(argument: "wide") == nil && AspectArgument(argument: "0:1") == nil)
    }

    @Test("The progress ETA reads as seconds, minutes or hours")
    func clockTime() throws {
        #expect(ProgressReporter.clockTime(0.2) == "1 s")
        #expect(ProgressReporter.clockTime(59) == "59 s")
        #expect(ProgressReporter.clockTime(125) == "2:05")
        #expect(ProgressReporter.clockTime(3723) == "1:02:03")
    }
}
