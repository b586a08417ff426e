import Foundation
import Testing

@testable import CropKit

/// One helper finds every target's resources in SwiftPM's Linux and Apple layouts and in an installed `share/cropkit`.
@Suite struct ResourceBundleTests {
    @Test(
        "the places looked in: Linux .resources, Apple .bundle (flat and Contents/Resources), share/cropkit, the source"
    )
    func candidates() {
        let places = ResourceBundle.candidates(
            package: "CropKit", target: "CropSamples", subfolder: "Samples", source: "/src/Samples")
        #expect(places.contains { $0.hasSuffix("/CropKit_CropSamples.resources/Samples") })
        #expect(places.contains { $0.hasSuffix("/CropKit_CropSamples.bundle/Samples") })
        #expect(places.contains { $0.hasSuffix("/CropKit_CropSamples.bundle/Contents/Resources/Samples") })
        #expect(places.contains { $0.hasSuffix("/share/cropkit/CropKit_CropSamples.resources/Samples") })
        #expect(places.last == "/src/Samples")
        #expect(Set(places).count == places.count)
    }

    @Test("a folder holding the marker is found; none is nil, not a crash")
    func finds() throws {
        let folder = NSTemporaryDirectory() + "resource-bundle-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/marker.txt"))
        #expect(
            ResourceBundle.directory(target: "Nothing", subfolder: "X", marker: "marker.txt", source: folder) == folder)
        #expect(
            ResourceBundle.directory(target: "Nothing", subfolder: "X", marker: "absent.txt", source: folder) == nil)
    }
}
