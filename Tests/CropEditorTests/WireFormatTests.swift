import CropInteraction
import CropKit
import Foundation
import Testing

@testable import CropEditor

/// The editor's JSON wire format: events from the page, view states to it.
@Suite("Wire format")
struct WireFormatTests {
    @Test("events decode from the documented JSON and round-trip")
    func eventJSON() throws {
        let decoder = JSONDecoder()
        let samples: [(String, CropEvent)] = [
            (
                #"{"type":"pointerDown","id":1,"x":10,"y":20.5}"#,
                .pointerDown(id: 1, location: Point(x: 10, y: 20.5), intent: .auto)
            ),
            (
                #"{"type":"pointerDown","id":2,"x":0,"y":0,"intent":"pan"}"#,
                .pointerDown(id: 2, location: .zero, intent: .pan)
            ),
            (#"{"type":"pointerMove","id":1,"x":1,"y":2}"#, .pointerMove(id: 1, location: Point(x: 1, y: 2))),
            (#"{"type":"pointerUp","id":1,"x":1,"y":2}"#, .pointerUp(id: 1, location: Point(x: 1, y: 2))),
            (#"{"type":"pointerCancel","id":1}"#, .pointerCancel(id: 1)),
            (#"{"type":"zoom","factor":1.1,"x":5,"y":6}"#, .zoom(factor: 1.1, anchor: Point(x: 5, y: 6))),
            (#"{"type":"straighten","angle":-3.5,"final":false}"#, .straighten(angle: -3.5, isFinal: false)),
            (#"{"type":"straighten","angle":2}"#, .straighten(angle: 2, isFinal: true)),
            (#"{"type":"straightenBy","delta":0.1}"#, .straightenBy(delta: 0.1)),
            (
                #"{"type":"rotate","direction":"counterClockwise","aspectPolicy":"keepOutputRatio"}"#,
                .rotate(.counterClockwise, aspectPolicy: .keepOutputRatio)
            ),
            (#"{"type":"flip","axis":"vertical"}"#, .flip(.vertical)),
            (#"{"type":"aspect","aspect":"16:9"}"#, .aspect(try .ratio(16, 9))),
            (#"{"type":"aspect","aspect":"original"}"#, .aspect(.original)),
            (#"{"type":"swapAspect"}"#, .swapAspect),
            (#"{"type":"nudge","dx":-1,"dy":0}"#, .nudge(dx: -1, dy: 0)),
            (
                #"{"type":"resizeBy","handle":"bottomRight","dx":10,"dy":-100}"#,
                .resizeBy(handle: .bottomRight, dx: 10, dy: -100)
            ),
            (#"{"type":"resetCrop"}"#, .resetCrop),
            (#"{"type":"reset"}"#, .reset),
            (#"{"type":"undo"}"#, .undo),
            (#"{"type":"redo"}"#, .redo),
            (
                #"{"type":"viewport","width":800,"height":600}"#,
                .viewport(size: Size(width: 800, height: 600), insets: .zero)
            ),
            (
                #"{"type":"viewport","width":800,"height":600,"insets":{"top":1,"left":2,"bottom":3,"right":4}}"#,
                .viewport(size: Size(width: 800, height: 600), insets: EdgeInsets(top: 1, left: 2, bottom: 3, right: 4))
            ),
            (#"{"type":"mode","mode":"pan"}"#, .mode(.pan)),
        ]
        for (json, expected) in samples {
            let event = try decoder.decode(EventMessage.self, from: Data(json.utf8)).event
            #expect(event == expected, "\(json)")
            #expect(
                try decoder.decode(EventMessage.self, from: JSONEncoder().encode(EventMessage(event))).event == event)
        }
        for bad in [
            #"{"type":"explode"}"#, #"{"type":"rotate","direction":"clockwise"}"#, #"{"id":1}"#,
            #"{"type":"aspect","aspect":"0:1"}"#,
            #"{"type":"resizeBy","handle":"middle","dx":1,"dy":0}"#, #"{"type":"resizeBy","dx":1,"dy":0}"#,
        ] {
            #expect(throws: (any Error).self) { try decoder.decode(EventMessage.self, from: Data(bad.utf8)) }
        }
    }

    @Test("the view state encodes to the documented flat JSON and decodes back")
    func viewStateJSON() throws {
        var s = try CropSession(
            state: CropState(sourceSize: PixelSize(validWidth: 4000, height: 3000), minimumCropSize: 10),
            viewportSize: Size(width: 900, height: 700), insets: EdgeInsets(all: 50),
            configuration: .init(
                touchRadius: 20, handleSize: 16, tapSlop: 4, historyLimit: 50,
                previewSize: PixelSize(validWidth: 1000, height: 750), maximumBoxFraction: 1))
        try s.handle(.aspect(.square))
        let v = s.viewState
        let data = try JSONEncoder().encode(ViewStateMessage(v))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(
            Set(object.keys) == [
                "viewport", "image", "cropBox", "handles", "pictureCorners", "showsGrid", "angle",
                "quarterTurns", "flipped", "aspect", "outputSize", "canUndo", "canRedo", "mode",
                "gesture", "recipe", "wantedBox", "minimumSide",
            ])
        let box = try #require(object["cropBox"] as? [String: Double])
        #expect(box == ["x": 150, "y": 50, "width": 600, "height": 600])
        // Unstraightened, the wanted crop is the box; the minimum side is 10 source pixels at 600/3000 points each.
        #expect(object["wantedBox"] as? [String: Double] == box)
        #expect(object["minimumSide"] as? Double == 2)
        let image = try #require(object["image"] as? [String: Any])
        #expect(image["width"] as? Int == 1000 && image["height"] as? Int == 750)
        #expect(Set((try #require(image["transform"] as? [String: Double])).keys) == ["a", "b", "c", "d", "tx", "ty"])
        let handle = try #require((object["handles"] as? [[String: Any]])?.first)
        #expect(handle["handle"] as? String == "topLeft" && handle["width"] as? Double == 16)
        #expect(object["aspect"] as? String == "1:1" && object["gesture"] as? String == "none")
        #expect(object["outputSize"] as? [String: Int] == ["width": 3000, "height": 3000])
        #expect(try JSONDecoder().decode(ViewStateMessage.self, from: data).state == v)
    }

    @Test(
        "straightened, the view state's wanted box is the crop asked for: larger than the box, about the same centre, by the zoom that keeps the box free of fill"
    )
    func wantedBoxWhenStraightened() throws {
        var s = try CropSession(
            state: CropState(sourceSize: PixelSize(validWidth: 4000, height: 3000)),
            viewportSize: Size(width: 900, height: 700), configuration: .init(maximumBoxFraction: 1))
        try s.handle(.straighten(angle: 10, isFinal: true))
        let v = s.viewState
        #expect(v.wantedBox.width > v.cropBox.width * 1.2)
        #expect(abs(v.wantedBox.width / v.wantedBox.height - 4.0 / 3) < 1e-9)
        #expect(abs(v.wantedBox.midX - v.cropBox.midX) < 1e-9 && abs(v.wantedBox.midY - v.cropBox.midY) < 1e-9)
        // The box is the wanted crop shrunk by the allowed/wanted ratio of the engine's crops.
        let state = s.state
        #expect(abs(v.cropBox.width / v.wantedBox.width - state.crop.width / state.wantedCrop.width) < 1e-9)
        try s.handle(.straighten(angle: 0, isFinal: true))
        #expect(s.viewState.wantedBox == s.viewState.cropBox)
    }
}
