// swift-format-ignore-file: AlwaysUseLowerCamelCase
// (the exports keep their C names (ck_*), which the page calls)
import CropInteraction

// The C functions the WebAssembly module exports (scripts/build-wasm; `cropkit-engine.js` calls them). Numbers go
// in and out through two buffers in the module's memory, so an event costs a copy of a few numbers each way and no
// allocation on the JavaScript side:
//
//   ck_input()                 the address of the input buffer (`ck_input_count()` doubles)
//   ck_output()                the address of the output buffer (`ck_output_count()` doubles)
//   ck_session_new()           a session from `SessionParameters` in the input: its handle (≥ 1), or -2 (a number
//                              out of its range; its index at ck_output()[0]) or -3 (the engine refused it)
//   ck_session_event(h)        applies the `NumericEvent` in the input; the view state in the output when the
//                              status (`NumericSession.Status`) is 0
//   ck_session_state(h)        the view state in the output, without an event; 0, or -1 for no such session
//   ck_session_free(h)         forgets the session

/// The input buffer's size in doubles: room for the session parameters, the largest input.
private let inputCount = 64

nonisolated(unsafe) private var input = [Double](repeating: 0, count: inputCount)
nonisolated(unsafe) private var output = [Double](repeating: 0, count: NumericViewState.count)
nonisolated(unsafe) private var sessions: [NumericSession?] = []

/// The address of the input buffer (`ck_input_count()` doubles).
@_cdecl("ck_input")
public func ck_input() -> UnsafeMutablePointer<Double> {
    input.withUnsafeMutableBufferPointer { $0.baseAddress! }
}

/// The input buffer's size in doubles.
@_cdecl("ck_input_count")
public func ck_input_count() -> Int32 { Int32(inputCount) }

/// The address of the output buffer (`ck_output_count()` doubles).
@_cdecl("ck_output")
public func ck_output() -> UnsafeMutablePointer<Double> {
    output.withUnsafeMutableBufferPointer { $0.baseAddress! }
}

/// The output buffer's size in doubles: a view state's (`NumericViewState.count`).
@_cdecl("ck_output_count")
public func ck_output_count() -> Int32 { Int32(NumericViewState.count) }

/// A session from the `SessionParameters` in the input: its handle (≥ 1), -2 (a number out of its range, its index
/// at `ck_output()[0]`) or -3 (the engine refused it).
@_cdecl("ck_session_new")
public func ck_session_new() -> Int32 {
    let made = input.withUnsafeBufferPointer { buffer in
        Result { () throws(SessionParameters.Failure) in try NumericSession(parameters: buffer.baseAddress!) }
    }
    switch made {
    case .success(let session):
        if let free = sessions.firstIndex(where: { $0 == nil }) {
            sessions[free] = session
            return Int32(free + 1)
        }
        sessions.append(session)
        return Int32(sessions.count)
    case .failure(.invalidParameter(let index)):
        output[0] = Double(index)
        return NumericSession.Status.unreadable.rawValue
    case .failure(.refused):
        return NumericSession.Status.refused.rawValue
    }
}

/// Applies the `NumericEvent` in the input to session `handle`; its view state is in the output when the status
/// (`NumericSession.Status`) is 0.
@_cdecl("ck_session_event")
public func ck_session_event(_ handle: Int32) -> Int32 {
    let i = Int(handle) - 1
    guard sessions.indices.contains(i), var session = sessions[i] else {
        return NumericSession.Status.unknownSession.rawValue
    }
    sessions[i] = nil  // one reference while it changes, so the session's arrays are not copied
    let status = input.withUnsafeBufferPointer { event in
        output.withUnsafeMutableBufferPointer { state in session.apply(event.baseAddress!, state: state.baseAddress!) }
    }
    sessions[i] = session
    return status.rawValue
}

/// Session `handle`'s view state in the output, without an event: 0, or -1 for no such session.
@_cdecl("ck_session_state")
public func ck_session_state(_ handle: Int32) -> Int32 {
    let i = Int(handle) - 1
    guard sessions.indices.contains(i), let session = sessions[i] else {
        return NumericSession.Status.unknownSession.rawValue
    }
    output.withUnsafeMutableBufferPointer { NumericViewState.write(session.session.viewState, into: $0.baseAddress!) }
    return NumericSession.Status.applied.rawValue
}

/// Forgets session `handle` (its slot is reused).
@_cdecl("ck_session_free")
public func ck_session_free(_ handle: Int32) {
    let i = Int(handle) - 1
    guard sessions.indices.contains(i) else { return }
    sessions[i] = nil
}
