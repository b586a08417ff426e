import ArgumentParser
import CropKit
import Foundation

/// A problem the command line itself finds (an output that is its input, a rectangle outside the picture …),
/// reported like the library's errors: one line naming the file.
struct CommandError: Error, CustomStringConvertible {
    /// The message, without the file name.
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
