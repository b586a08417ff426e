import CropTestSupport
import Testing

@testable import CropKit

/// The rules between a resize's options, checked once in `ResizeRequest` for the CLI and the service alike.
@Suite("Resize options: every rule in one place")
struct ResizeRequestOptionsTests {
    static func refusal(_ make: () throws(CropKitError) -> ResizeRequest) -> (name: String, reason: String)? {
        do {
            _ = try make()
            return nil
        } catch {
            guard case .invalidRequest(let name, let reason) = error else { return ("?", error.description) }
            return (name, reason)
        }
    }

    @Test("each rule names the option it refuses")
    func refusals() {
        let box = PixelSize(validWidth: 100, height: 80)
        let cases: [(String, () throws(CropKitError) -> ResizeRequest)] = [
            ("size", { () throws(CropKitError) in try ResizeRequest() }),
            ("height", { () throws(CropKitError) in try ResizeRequest(width: 10, height: 10) }),
            ("size", { () throws(CropKitError) in try ResizeRequest(width: 10, size: box) }),
            ("width", { () throws(CropKitError) in try ResizeRequest(width: 0) }),
            ("height", { () throws(CropKitError) in try ResizeRequest(height: 9000, maximumSide: 8192) }),
            (
                "size",
                { () throws(CropKitError) in
                    try ResizeRequest(size: PixelSize(validWidth: 9000, height: 10), maximumSide: 8192)
                }
            ),
            (
                "background",
                { () throws(CropKitError) in try ResizeRequest(size: box, mode: .fill, background: .white) }
            ),
            (
                "focus",
                { () throws(CropKitError) in
                    try ResizeRequest(size: box, mode: .fit, focus: .focus(Point(x: 0.2, y: 0.3)))
                }
            ),
            (
                "focus",
                { () throws(CropKitError) in
                    try ResizeRequest(size: box, mode: .fill, gravity: .top, focus: .focus(Point(x: 0.2, y: 0.3)))
                }
            ),
            ("gravity", { () throws(CropKitError) in try ResizeRequest(size: box, mode: .pad, gravity: .attention) }),
        ]
        for (name, make) in cases {
            let refused = Self.refusal(make)
            #expect(refused?.name == name, "\(String(describing: refused))")
        }
    }

    @Test("what passes becomes the request the options name")
    func accepted() throws {
        let box = PixelSize(validWidth: 100, height: 80)
        #expect(try ResizeRequest(width: 64) == ResizeRequest(.width(64)))
        #expect(
            try ResizeRequest(size: box, mode: .fill, focus: .focus(Point(x: 0.2, y: 0.3)))
                == ResizeRequest(.box(box), mode: .fill(gravity: .focus(Point(x: 0.2, y: 0.3)))))
        #expect(
            try ResizeRequest(size: box, mode: .pad, gravity: .top, background: .white, allowUpscale: true)
                == ResizeRequest(.box(box), mode: .pad(background: .white, alignment: .top), allowUpscale: true))
        #expect(
            try ResizeRequest(height: 8192, mode: .stretch, filter: .mitchell, linearLight: true, maximumSide: 8192)
                == ResizeRequest(.height(8192), mode: .stretch, filter: .mitchell, linearLight: true))
    }

    @Test("a gravity or a focus places only an aspect W:H crop given no rect; the refusal names which was given")
    func aspectPlacement() throws {
        let square = try AspectRatio(1, 1)
        #expect(
            try ImageOperation.aspect(.ratio(square), gravity: .attention) == .aspectCrop(square, gravity: .attention))
        #expect(try ImageOperation.aspect(.ratio(square)) == .aspect(.ratio(square)))
        #expect(try ImageOperation.aspect(nil) == nil)
        let refusals: [(String, () throws(CropKitError) -> ImageOperation?)] = [
            ("gravity", { () throws(CropKitError) in try ImageOperation.aspect(nil, gravity: .top) }),
            ("gravity", { () throws(CropKitError) in try ImageOperation.aspect(.original, gravity: .top) }),
            (
                "focus",
                { () throws(CropKitError) in
                    try ImageOperation.aspect(.ratio(square), focus: .focus(Point(x: 0.5, y: 0.5)), withRect: true)
                }
            ),
            (
                "focus",
                { () throws(CropKitError) in
                    try ImageOperation.aspect(.ratio(square), gravity: .top, focus: .focus(Point(x: 0.5, y: 0.5)))
                }
            ),
        ]
        for (name, make) in refusals {
            #expect(throws: CropKitError.self) { _ = try make() }
            do { _ = try make() } catch { if case .invalidRequest(let refused, _) = error { #expect(refused == name) } }
        }
    }
}
