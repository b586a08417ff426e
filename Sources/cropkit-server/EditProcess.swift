// What `cropkit edit` does around its server: opening the browser, saying what happened, and a bounded stop.
import CropCLI
import CropEditor
import Dispatch
import Foundation

/// Asks the desktop to open `url` (`xdg-open`, or `open` on macOS); a failure is reported, not fatal.
func openInBrowser(_ url: String) {
    #if os(macOS)
        let opener = "/usr/bin/open"
    #else
        let opener = "/usr/bin/xdg-open"
    #endif
    let process = Process()
    process.executableURL = URL(fileURLWithPath: opener)
    process.arguments = [url]
    do {
        try process.run()
    } catch {
        reportFailure("cannot open a browser (\(error)); open \(url)")
    }
}

/// Writes `cropkit edit: message` to standard error.
func reportFailure(_ message: String) {
    printError("cropkit edit: \(message)")
}

/// A backstop for SIGTERM and SIGINT: the server's graceful stop (every page's socket saved and closed, 1.5 s at most
/// for the rest) normally ends the process well within `seconds`; should anything still hold it then, every pending
/// edit is saved and the process exits 0, so a stop never hangs and never loses an edit.
func stopWithin(seconds: Double, saving server: EditorServer) {
    for signalNumber in [SIGTERM, SIGINT] {
        signal(signalNumber, SIG_IGN)  // delivered to the dispatch sources (ServiceLifecycle's and this one)
        let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
        source.setEventHandler {
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
                Task {
                    await server.saveEveryPendingEdit()
                    exit(0)
                }
            }
        }
        source.resume()
        stopSources.append(source)
    }
}

/// The signal sources of ``stopWithin(seconds:saving:)``, kept for the life of the process.
nonisolated(unsafe) private var stopSources: [any DispatchSourceSignal] = []
