// libFuzzer target: the editor's WebSocket events (JSON lines, as the page sends them) applied to an CropSession.
// Each event either fails with an error and leaves the state unchanged, or gives a state whose crop lies inside the
// straightened picture.
import CropEditor
import CropEngine
import CropGeometry
import CropInteraction
import Foundation

/// One input of `FuzzEditorEvents`; libFuzzer calls it through `CropKitFuzz`, and `FuzzReplayTests` with every seed.
public func fuzzEditorEvents(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size >= 2 else { return 0 }
    let source = PixelSize(validWidth: 40 + Int(data[0]) * 16, height: 40 + Int(data[1]) * 12)
    guard let state = try? CropState(sourceSize: source, orientation: Orientation.allCases[Int(data[0]) % 8]),
        var session = try? CropSession(state: state, viewportSize: Size(width: 800, height: 600))
    else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: data + 2, count: size - 2), as: UTF8.self)
    let decoder = JSONDecoder()
    for line in text.split(separator: "\n").prefix(200) {
        guard let event = try? decoder.decode(EventMessage.self, from: Data(line.utf8)).event else { continue }
        let before = session.viewState
        do {
            _ = try session.handle(event)
            guard session.state.cropIsInsidePicture() else {
                fatalError("after \(event): crop \(session.state.crop) outside the picture")
            }
        } catch {
            guard session.viewState == before else { fatalError("a failed \(event) changed the state") }
        }
    }
    return 0
}
