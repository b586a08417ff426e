import CropCodecs
import CropInteraction
import CropKit
import CropTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import NIOCore
import Testing
import WSClient

@testable import CropEditor

/// A folder of photos in the editor: the listing, the saved crops beside the photos, copying a crop, Export all.
@Suite("The editor on a folder of photos")
struct FolderWorkflowTests {
    /// A scratch folder with three photos of different sizes and one file that is not a picture:
    /// `a.jpg` 900×300, `b.jpg` 400×600, `c.png` 500×500, `d-broken.jpg`.
    static func photoFolder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cropkit-folder-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(try ImageCodec.encode(redDiscScene(x: 700, y: 150, width: 900, height: 300), as: .jpeg))
            .write(to: URL(fileURLWithPath: folder + "/a.jpg"))
        try Data(try ImageCodec.encode(redDiscScene(x: 200, y: 150, width: 400, height: 600), as: .jpeg))
            .write(to: URL(fileURLWithPath: folder + "/b.jpg"))
        try Data(try ImageCodec.encode(redDiscScene(x: 250, y: 250, width: 500, height: 500), as: .png))
            .write(to: URL(fileURLWithPath: folder + "/c.png"))
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: folder + "/d-broken.jpg"))
        return folder
    }

    static func server(_ folder: String, start: [ImageOperation] = [], constraints: CropConstraints = .none) throws
        -> EditorServer
    {
        var configuration = EditorServer.Configuration(previewMaximumSide: 200, constraints: constraints)
        configuration.renderConcurrency = 2
        let library = EditorLibrary(
            files: try PhotoFolder.photos(in: folder), pipeline: configuration.pipeline,
            previewMaximumSide: 200, start: start)
        return EditorServer(
            library: library, configuration: configuration, page: try EditorPage(),
            exportFolder: folder + "/out")
    }

    static func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    @Test(
        "a folder lists its photos by name as a person reads it (numbers by value), without hidden files, sidecars, folders or other files"
    )
    func listing() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cropkit-list-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder + "/sub.jpg", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in [
            "IMG_10.jpg", "IMG_2.JPG", "a.PNG", "b.heic", ".hidden.jpg", "notes.txt", "IMG_2.JPG.cropkit.json",
            "z.tiff", "y.webp",
        ] {
            try Data([1]).write(to: URL(fileURLWithPath: folder + "/" + name))
        }
        let names = try PhotoFolder.photos(in: folder).map { ($0 as NSString).lastPathComponent }
        #expect(names == ["a.PNG", "b.heic", "IMG_2.JPG", "IMG_10.jpg", "y.webp", "z.tiff"])
        #expect(throws: EditorError.self) { try PhotoFolder.photos(in: folder + "/missing") }
    }

    @Test(
        "a sidecar is named after the whole photo name, round-trips a recipe, is written atomically, and a bad one is a named error"
    )
    func sidecars() throws {
        let folder = try Self.photoFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let sidecar = RecipeSidecar(photo: folder + "/a.jpg")
        #expect(sidecar.path == folder + "/a.jpg.cropkit.json")
        #expect(try sidecar.read() == nil)
        let recipe = try Recipe(
            cropCenter: Point(x: 0.4, y: 0.5), cropSize: Size(width: 0.3, height: 0.9), angle: 3.5,
            aspect: .ratio(try AspectRatio(1, 1)))
        try sidecar.write(recipe)
        #expect(try sidecar.read() == recipe)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder).filter {
            $0.contains(".tmp") || $0.hasPrefix(".")
        }
        #expect(leftovers.isEmpty, "\(leftovers)")
        try Data("{\"version\": 9}".utf8).write(to: URL(fileURLWithPath: sidecar.path))
        #expect {
            try sidecar.read()
        } throws: { error in
            guard case .invalidSidecar(let name, let reason) = error as? EditorError else { return false }
            return name == "a.jpg.cropkit.json" && reason.contains("version")
        }
        try Data(repeating: 32, count: RecipeSidecar.maximumBytes + 1).write(to: URL(fileURLWithPath: sidecar.path))
        #expect(throws: EditorError.self) { try sidecar.read() }
        try sidecar.remove()
        #expect(!sidecar.exists)
        try sidecar.remove()  // nothing to remove: no error
    }

    @Test(
        "edit → sidecar beside the photo (photo untouched) → restored on reopen → copy to next and to all → Export all writes every cropped photo and names the failure → Cancel puts the saved crop back"
    )
    func wholeFlow() async throws {
        let folder = try Self.photoFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let originals = try ["a.jpg", "b.jpg", "c.png", "d-broken.jpg"].map { try Self.bytes(folder + "/" + $0) }
        let server = try Self.server(folder)
        let notes = Notes()
        let viewport = CropEvent.viewport(
            size: Size(width: 800, height: 600),
            insets: EdgeInsets(top: 16, left: 16, bottom: 16, right: 16))
        try await server.makeApplication(logger: quietLogger).test(.live) { client in
            // The strip's list: four photos in order, none cropped.
            let list = try await client.execute(uri: "/api/images", method: .get) { response in
                try JSONDecoder().decode(EditorServer.FolderList.self, from: Data(response.bytes))
            }
            #expect(list.images.map(\.name) == ["a.jpg", "b.jpg", "c.png", "d-broken.jpg"])
            #expect(list.images.map(\.id) == ["0", "1", "2", "3"])
            #expect(list.savesCrops && list.exportFolder == folder + "/out")
            #expect(list.images.allSatisfy { !$0.edited })
            try await client.execute(uri: "/" + list.images[0].thumbnail, method: .get) { response in
                #expect(response.status == .ok && response.headers[.contentType] == "image/webp")
                let thumbnail = try Image(source: .data(response.bytes))
                #expect((159...160).contains(thumbnail.size.width) && thumbnail.size.height == 53, "\(thumbnail.size)")
            }
            try await client.execute(uri: "/api/images/3/thumbnail", method: .get) { response in
                expectError(response, .unsupportedMediaType, "unsupportedImage")
            }

            // Crop a.jpg to 1:1: the crop is saved beside it at once.
            try await client.ws("/api/session?image=0") { inbound, outbound, _ in
                var talk = Conversation(
                    inbound: inbound.messages(maxSize: 1 << 20).makeAsyncIterator(), outbound: outbound)
                let hello = try await talk.next()
                await notes.set(session: try #require(hello.session))
                let first = try await talk.send(viewport)
                #expect(first.notice == nil)
                #expect(!RecipeSidecar(photo: folder + "/a.jpg").exists, "nothing is saved before a change")
                let square = try await talk.send(.aspect(.square))
                #expect(square.state?.outputSize == PixelSize(validWidth: 300, height: 300))
                #expect(try RecipeSidecar(photo: folder + "/a.jpg").read() == square.state?.recipe)
            }
            #expect(try Self.bytes(folder + "/a.jpg") == originals[0], "the photo itself is never written")
            let edited = try await client.execute(uri: "/api/images", method: .get) { response in
                try JSONDecoder().decode(EditorServer.FolderList.self, from: Data(response.bytes))
            }
            #expect(edited.images.map(\.edited) == [true, false, false, false])
            #expect(edited.images[0].thumbnail != list.images[0].thumbnail, "a new crop gives a new thumbnail URL")
            try await client.execute(uri: "/" + edited.images[0].thumbnail, method: .get) { response in
                let thumbnail = try Image(source: .data(response.bytes))
                #expect(thumbnail.size == PixelSize(validWidth: 160, height: 160))
            }

            // Reopened (a new session, as after restarting the editor): the saved crop comes back, said once.
            try await client.ws("/api/session?image=0") { inbound, outbound, _ in
                var talk = Conversation(
                    inbound: inbound.messages(maxSize: 1 << 20).makeAsyncIterator(), outbound: outbound)
                let hello = try await talk.next()
                #expect(hello.restored == false)
                let first = try await talk.send(viewport)
                #expect(first.state?.outputSize == PixelSize(validWidth: 300, height: 300))
                #expect(
                    first.notice?.contains("Restored the saved crop (a.jpg.cropkit.json)") == true,
                    "\(first.notice ?? "")")
            }

            // Copy to next: b.jpg (400×600) gets a 1:1 crop of the same share of its area (a third of its area: a 282.8-px square).
            let session = await notes.session
            let toNext = try await client.execute(uri: "/api/sessions/\(session)/copy?to=next", method: .post) {
                response in
                #expect(response.status == .ok)
                return try JSONDecoder().decode(EditorServer.CopyOutcome.self, from: Data(response.bytes))
            }
            #expect(toNext.copied == ["b.jpg"] && toNext.failed.isEmpty && toNext.next == "1")
            let b = try CropState(
                recipe: try #require(try RecipeSidecar(photo: folder + "/b.jpg").read()),
                sourceSize: PixelSize(validWidth: 400, height: 600))
            #expect(b.outputSize == PixelSize(validWidth: 282, height: 282))

            // Copy to all: c.png too; the file that is not a picture is named with why.
            let toAll = try await client.execute(uri: "/api/sessions/\(session)/copy?to=all", method: .post) {
                response in
                try JSONDecoder().decode(EditorServer.CopyOutcome.self, from: Data(response.bytes))
            }
            #expect(toAll.copied == ["b.jpg", "c.png"])
            #expect(toAll.failed.map(\.name) == ["d-broken.jpg"])
            #expect(toAll.failed.first?.message.contains("unsupported image") == true, "\(toAll.failed)")
            try await client.execute(uri: "/api/sessions/\(session)/copy?to=sideways", method: .post) { response in
                expectError(response, .badRequest, "invalidParameter")
            }

            // Export all: three photos written at their crops' sizes, the broken one has no crop and is not listed.
            try await client.execute(uri: "/api/export", method: .post) { response in
                #expect(response.status == .accepted)
                let progress = try JSONDecoder().decode(FolderExport.Progress.self, from: Data(response.bytes))
                #expect(progress.total == 3 && progress.folder == folder + "/out")
            }
            let done = await server.export?.wait()
            let progress = try #require(done)
            #expect(!progress.running && progress.done == 3 && progress.failed.isEmpty, "\(progress)")
            let sizes = Dictionary(
                uniqueKeysWithValues: progress.written.map {
                    ($0.name, PixelSize(validWidth: $0.width, height: $0.height))
                })
            #expect(
                sizes == [
                    "a.jpg": PixelSize(validWidth: 300, height: 300), "b.jpg": PixelSize(validWidth: 282, height: 282),
                    "c.png": PixelSize(validWidth: 288, height: 288),
                ])
            for written in progress.written {
                let image = try Image(source: .file(written.file))
                #expect(image.size == PixelSize(validWidth: written.width, height: written.height), "\(written.file)")
            }
            #expect(FileManager.default.fileExists(atPath: folder + "/out/c.png"))
            try await client.execute(uri: "/api/export", method: .get) { response in
                let polled = try JSONDecoder().decode(FolderExport.Progress.self, from: Data(response.bytes))
                #expect(polled == progress)
            }

            // A sidecar that is not a recipe: Export all names the photo and why; the others are written.
            try Data("{".utf8).write(to: URL(fileURLWithPath: folder + "/d-broken.jpg.cropkit.json"))
            _ = try await client.execute(uri: "/api/export", method: .post) { $0.status }
            let second = try #require(await server.export?.wait())
            #expect(second.total == 4 && second.written.count == 3)
            #expect(second.failed.map(\.name) == ["d-broken.jpg"])
            #expect(
                second.failed.first?.message.contains("d-broken.jpg.cropkit.json cannot be read") == true,
                "\(second.failed)")

            // Cancel: the photo's saved crop goes back to what it was when the session began.
            let before = try RecipeSidecar(photo: folder + "/c.png").read()
            try await client.ws("/api/session?image=2") { inbound, outbound, _ in
                var talk = Conversation(
                    inbound: inbound.messages(maxSize: 1 << 20).makeAsyncIterator(), outbound: outbound)
                let hello = try await talk.next()
                await notes.set(session: try #require(hello.session))
                _ = try await talk.send(viewport)
                let reset = try await talk.send(.reset)
                #expect(reset.state?.outputSize == PixelSize(validWidth: 500, height: 500))
                #expect(!RecipeSidecar(photo: folder + "/c.png").exists, "an untouched crop removes the sidecar")
            }
            let cancelled = await notes.session
            try await client.execute(uri: "/api/sessions/\(cancelled)", method: .delete) { response in
                #expect(response.status == .noContent)
            }
            #expect(try RecipeSidecar(photo: folder + "/c.png").read() == before)
        }
        for (name, original) in zip(["a.jpg", "b.jpg", "c.png", "d-broken.jpg"], originals) {
            #expect(try Self.bytes(folder + "/" + name) == original, "\(name) is never written")
        }
    }

    @Test(
        "a folder with a proposal starts each photo there, and Export all renders every photo without a saved crop at it"
    )
    func proposalForEveryPhoto() async throws {
        let folder = try Self.photoFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.removeItem(atPath: folder + "/d-broken.jpg")
        let server = try Self.server(folder, start: [.aspectCrop(.square, gravity: .attention)])
        try await server.makeApplication(logger: quietLogger).test(.live) { client in
            try await client.ws("/api/session?image=1") { inbound, outbound, _ in
                var talk = Conversation(
                    inbound: inbound.messages(maxSize: 1 << 20).makeAsyncIterator(), outbound: outbound)
                _ = try await talk.next()
                let first = try await talk.send(
                    CropEvent.viewport(
                        size: Size(width: 800, height: 600),
                        insets: EdgeInsets(top: 16, left: 16, bottom: 16, right: 16)))
                #expect(first.state?.outputSize == PixelSize(validWidth: 400, height: 400))
                #expect(first.notice?.hasPrefix("Proposed: the 1:1 crop with the most attention") == true)
            }
            _ = try await client.execute(uri: "/api/export", method: .post) { $0.status }
            let progress = try #require(await server.export?.wait())
            #expect(progress.total == 3 && progress.failed.isEmpty)
            #expect(Set(progress.written.map(\.width)) == [300, 400, 500])
            #expect(progress.written.allSatisfy { $0.width == $0.height })
        }
    }

    @Test("Export all applies the host's output: exactly the output size, round as PNG with transparent corners")
    func exportAppliesTheHostsOutput() async throws {
        let folder = try Self.photoFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.removeItem(atPath: folder + "/d-broken.jpg")
        let constraints = try CropConstraints(outputSize: PixelSize(validWidth: 64, height: 64), isRound: true)
        let server = try Self.server(
            folder, start: [.aspectCrop(.square, gravity: .attention)], constraints: constraints)
        try await server.makeApplication(logger: quietLogger).test(.router) { client in
            _ = try await client.execute(uri: "/api/export", method: .post) { $0.status }
            let progress = try #require(await server.export?.wait())
            #expect(progress.total == 3 && progress.failed.isEmpty, "\(progress.failed)")
            #expect(progress.written.allSatisfy { $0.width == 64 && $0.height == 64 }, "\(progress.written)")
            for written in progress.written {
                #expect(written.file.hasSuffix(".png"), "round: PNG, not \(written.file)")
                let image = try Image(contentsOfFile: written.file)
                #expect(image.size == PixelSize(validWidth: 64, height: 64))
                let corner = image.pixels.pixel(x: 0, y: 0), centre = image.pixels.pixel(x: 32, y: 32)
                #expect(corner.last == 0 && centre.last == 255, "\(written.name): corner \(corner), centre \(centre)")
            }
        }
    }

    @Test("one picture in memory has no folder: no strip, and copy and export are refused with a named problem")
    func noFolder() async throws {
        let server = try makeServer()
        try await server.makeApplication(logger: quietLogger).test(.router) { client in
            try await client.execute(uri: "/api/images", method: .get) { response in
                let list = try JSONDecoder().decode(EditorServer.FolderList.self, from: Data(response.bytes))
                #expect(list.images.count == 1 && !list.savesCrops && list.exportFolder == nil)
            }
            try await client.execute(uri: "/api/export", method: .post) { response in
                expectError(response, .conflict, "noFolder")
            }
            try await client.execute(uri: "/api/export", method: .get) { response in
                expectError(response, .conflict, "noFolder")
            }
        }
    }

    @Test("a crop that cannot be saved is said once, not on every change, and later changes are still tried")
    func saveFailureIsSaidOnce() async throws {
        // A photo whose folder is gone: the sidecar cannot be written (a read-only folder, which root ignores here).
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cropkit-gone-\(UUID())").path
        let library = EditorLibrary(files: [folder + "/a.jpg"])
        let saver = CropSaver(library: library, imageID: "0", now: { ContinuousClock.now })
        let square = try Recipe(cropSize: Size(width: 0.5, height: 1), aspect: .square)
        let first = await saver.save(square, atRest: true)
        #expect(first?.hasPrefix("cannot save a.jpg.cropkit.json") == true, "\(first ?? "nil")")
        #expect(first?.hasSuffix("(the crop is kept for this session only)") == true)
        #expect(await saver.save(try Recipe(angle: 2), atRest: true) == nil, "said once")
        #expect(await saver.saved == nil, "nothing counts as saved")
        // Once the folder exists again, the pending crop is saved at the next event.
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(await saver.save(nil, atRest: true) == nil)
        #expect(try RecipeSidecar(photo: folder + "/a.jpg").read() == (try Recipe(angle: 2)))
    }

    @Test(
        "B1: a run of steps (no event at rest) is saved once the interval has passed with no further event, and at once on flush, by the injected clock"
    )
    func runIsSavedWithoutAnotherEvent() async throws {
        let folder = try Self.photoFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let clock = ManualClock()
        let saver = CropSaver(library: EditorLibrary(files: [folder + "/a.jpg"]), imageID: "0", now: { clock.now })
        let sidecar = RecipeSidecar(photo: folder + "/a.jpg")
        let steps = try (1...3).map { try Recipe(angle: 0.1 * Double($0)) }
        #expect(await saver.save(steps[0], atRest: false) == nil)
        #expect(try sidecar.read() == steps[0], "the first change of a run is written at once")
        clock.advance(by: .milliseconds(100))
        _ = await saver.save(steps[1], atRest: false)
        #expect(try sidecar.read() == steps[0], "a change within the interval waits")
        #expect(await saver.hasPending)
        await saver.flushIfDue()
        #expect(try sidecar.read() == steps[0], "not yet due")
        clock.advance(by: CropSaver.interval - .milliseconds(100))
        await saver.flushIfDue()
        #expect(try sidecar.read() == steps[1], "due: written with no further event")
        #expect(await saver.hasPending == false)
        _ = await saver.save(steps[2], atRest: false)
        #expect(try sidecar.read() == steps[1])
        await saver.flush()
        #expect(try sidecar.read() == steps[2], "flush writes at once")
        await saver.started(at: steps[2])
        _ = await saver.save(steps[2], atRest: true)
        #expect(await saver.hasPending == false, "the saved crop again is nothing to save")
    }

    @Test(
        "answers repeat their event's seq; a page reconnecting learns the last seq its session applied (another page load: none); flush and POST /api/sessions/ID/flush save the crop now"
    )
    func resynchronisingAndFlushing() async throws {
        let folder = try Self.photoFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try Self.server(folder)
        let sidecar = RecipeSidecar(photo: folder + "/a.jpg")
        let notes = Notes()
        let viewport = #"{"type":"viewport","width":800,"height":600,"#
        try await server.makeApplication(logger: quietLogger).test(.live) { client in
            try await client.ws("/api/session?image=0&page=p1") { inbound, outbound, _ in
                var talk = Conversation(
                    inbound: inbound.messages(maxSize: 1 << 20).makeAsyncIterator(), outbound: outbound)
                let hello = try await talk.next()
                #expect(hello.applied == nil)
                await notes.set(session: try #require(hello.session))
                #expect(try await talk.send(viewport + #""seq":1}"#).seq == 1)
                _ = try await talk.send(#"{"type":"straightenBy","delta":1,"seq":2}"#)
                let run = try await talk.send(#"{"type":"straightenBy","delta":1,"seq":3}"#)
                #expect(run.seq == 3 && run.state?.gesture == .straightening, "a run of steps stays open")
                let flushed = try await talk.send(#"{"type":"flush","seq":4}"#)
                #expect(flushed.type == "state" && flushed.seq == 4 && flushed.state?.angle == 2)
                #expect(try sidecar.read()?.angle == 2, "flush saved the run's last step")
                let refused = try await talk.send(#"{"type":"straighten","angle":"level","seq":5}"#)
                #expect(refused.type == "error" && refused.seq == 5)
            }
            let id = await notes.session
            // The server notices the close on its own time: a reconnect before that would get a new session.
            while await server.sessions.isConnected(id) { try await Task.sleep(for: .milliseconds(10)) }
            try await client.ws("/api/session?image=0&page=p1&id=\(id)") { inbound, outbound, _ in
                var talk = Conversation(
                    inbound: inbound.messages(maxSize: 1 << 20).makeAsyncIterator(), outbound: outbound)
                let hello = try await talk.next()
                #expect(hello.session == id && hello.applied == 5, "the same page load learns its last applied event")
                _ = try await talk.send(viewport + #""seq":6}"#)
                #expect(try await talk.send(#"{"type":"straightenBy","delta":1,"seq":7}"#).state?.angle == 3)
                try await client.execute(uri: "/api/sessions/\(id)/flush", method: .post) { response in
                    #expect(response.status == .noContent)
                }
                #expect(try sidecar.read()?.angle == 3, "the beacon's flush saved it")
            }
            while await server.sessions.isConnected(id) { try await Task.sleep(for: .milliseconds(10)) }
            try await client.ws("/api/session?image=0&page=p2&id=\(id)") { inbound, outbound, _ in
                var talk = Conversation(
                    inbound: inbound.messages(maxSize: 1 << 20).makeAsyncIterator(), outbound: outbound)
                let hello = try await talk.next()
                #expect(hello.applied == nil, "another page load's numbers are not this one's")
            }
            try await client.execute(uri: "/api/sessions/no-such-session/flush", method: .post) { response in
                expectError(response, .notFound, "unknownSession")
            }
        }
    }

    @Test("one export at a time; output names keep apart photos that share a stem")
    func exportRules() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cropkit-export-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let export = FolderExport(folder: folder, concurrency: 1)
        let gate = AsyncStream<Void>.makeStream()
        let jobs = [FolderExport.Job(name: "a.jpg", source: "/x/a.jpg", steps: .success([]))]
        _ = try await export.start(jobs) { _, _, _ in
            for await _ in gate.stream { break }
            throw EditorError.missingImage
        }
        await #expect(throws: EditorError.exportRunning) {
            _ = try await export.start(jobs) { _, _, _ in throw EditorError.missingImage }
        }
        gate.continuation.yield()
        let progress = await export.wait()
        #expect(progress.failed.map(\.name) == ["a.jpg"] && !progress.running)
        let names = FolderExport.outputNames(
            ["a.jpg", "a.jpeg", "b.heic", "c.gif", "d.tif", "A.JPG"].map {
                FolderExport.Job(name: $0, source: "/x/" + $0, steps: .success([]))
            },
            format: { $0.defaultOutput })
        // A GIF stays GIF (an animation keeps its frames); a TIFF, which CropKit does not write, becomes PNG.
        #expect(names == ["a.jpg", "a.jpeg.jpg", "b.heic", "c.gif", "d.png", "A.JPG.jpg"])
    }
}
