import CropEngine
import CropGeometry
import CropInteraction

/// A ``CropSession`` driven by numbers: what the WebAssembly module keeps per session, and what the native tests
/// drive the same way to produce the states the module must reproduce.
package struct NumericSession {
    /// What an event did.
    package enum Status: Int32 {
        /// Applied; the view state follows.
        case applied = 0
        /// No such session (only the module's table says this).
        case unknownSession = -1
        /// Numbers the module cannot read: an unknown kind, an index out of its set.
        case unreadable = -2
        /// The engine refused the event (a `GeometryError`); the session is unchanged.
        case refused = -3
    }

    /// The session.
    package private(set) var session: CropSession

    /// A session from ``SessionParameters`` numbers.
    package init(parameters: UnsafePointer<Double>) throws(SessionParameters.Failure) {
        session = try SessionParameters.session(parameters)
    }

    /// Applies the ``NumericEvent`` in `event`; the session changes only when the engine accepts it (`handle` and
    /// `setCrop` are all-or-nothing). Writes the view state into `state` when applied.
    package mutating func apply(_ event: UnsafePointer<Double>, state: UnsafeMutablePointer<Double>) -> Status {
        guard let decoded = NumericEvent.decode(event) else { return .unreadable }
        let view: CropViewState
        do {
            switch decoded {
            case .event(let event): view = try session.handle(event)
            case .setCrop(let rect): view = try session.setCrop(orientedRect: rect)
            }
        } catch {
            return .refused
        }
        NumericViewState.write(view, into: state)
        return .applied
    }
}
