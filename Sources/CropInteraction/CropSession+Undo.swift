import CropEngine
import CropGeometry

/// Undo steps: a gesture or a run of like events is one step.
extension CropSession {
    // MARK: Undo steps

    /// Continues a run of coalesced events of kind `g`, or ends the current gesture and starts the run.
    mutating func continueRun(_ g: Gesture) throws(GeometryError) {
        let sameKind: Bool
        switch (gesture, g) {
        case (.straightening, .straightening), (.zooming, .zooming), (.nudging, .nudging): sameKind = true
        case (.keyResizing(let a), .keyResizing(let b)): sameKind = a == b
        default: sameKind = false
        }
        if !sameKind {
            commit()
            gestureStart = state
            gesture = g
        }
    }

    /// A one-step discrete edit.
    mutating func discrete(_ edit: (inout CropState) -> Void) {
        commit()
        let before = state
        edit(&state)
        record(before)
    }

    /// Ends the current gesture or run, recording it as one undo step if it changed anything.
    mutating func commit() {
        guard gesture != .none else { return }
        gesture = .none
        pinchBase = nil
        record(gestureStart)
        gestureStart = state
    }

    mutating func record(_ before: CropState) {
        guard before != state else { return }
        undoStack.append(before)
        if undoStack.count > configuration.historyLimit {
            undoStack.removeFirst(undoStack.count - configuration.historyLimit)
        }
        redoStack.removeAll()
    }
}
