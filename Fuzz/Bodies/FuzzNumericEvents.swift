// libFuzzer target: the numbers the page's module reads (the WebAssembly engine's `ck_session_new` and
// `ck_session_event`), as little-endian doubles: the session's parameters, then events of 7 numbers. Numbers that
// make no session are refused with a typed failure; after that every event is applied, refused or unreadable, and
// never crashes: an applied one leaves the crop inside the straightened picture, any other leaves the state unchanged.
import CropEngine
import CropGeometry
import CropInteraction
import CropWasm

/// One input of `FuzzNumericEvents`; libFuzzer calls it through `CropKitFuzz`, and `FuzzReplayTests` with every seed.
public func fuzzNumericEvents(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let count = size / 8
    guard count >= SessionParameters.count else { return 0 }
    var numbers = [Double](repeating: 0, count: count)
    numbers.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(start: data, count: count * 8)) }
    // Keep the picture small enough to be cheap: the fuzzer looks for crashes in the rules, not in allocation.
    numbers[0] = numbers[0].isFinite ? min(abs(numbers[0]).rounded(.down), 20_000) : numbers[0]
    numbers[1] = numbers[1].isFinite ? min(abs(numbers[1]).rounded(.down), 20_000) : numbers[1]
    numbers[13] = numbers[13].isFinite ? min(abs(numbers[13]).rounded(.down), 50) : numbers[13]
    guard
        var session = try? numbers.withUnsafeBufferPointer({ p throws(SessionParameters.Failure) in
            try NumericSession(parameters: p.baseAddress!)
        })
    else { return 0 }
    var state = [Double](repeating: 0, count: NumericViewState.count)
    var at = SessionParameters.count
    while at + NumericEvent.count <= count, at < SessionParameters.count + 7 * 400 {
        let before = session.session.viewState
        let status = numbers.withUnsafeBufferPointer { e in
            state.withUnsafeMutableBufferPointer { s in session.apply(e.baseAddress! + at, state: s.baseAddress!) }
        }
        switch status {
        case .applied:
            guard session.session.state.cropIsInsidePicture() else {
                fatalError("after event at \(at): crop \(session.session.state.crop) outside the picture")
            }
        default:
            guard session.session.viewState == before else { fatalError("a \(status) event changed the state") }
        }
        at += NumericEvent.count
    }
    return 0
}
