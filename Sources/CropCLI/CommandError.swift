import ArgumentParser
import CropKit

/// A problem the command line itself finds (an output that is its input, a rectangle outside the picture …),
/// reported like the library's errors: one line naming the file.
package struct CommandError: Error, CustomStringConvertible {
    /// The message, without the file name.
    package let description: String

    package init(_ description: String) {
        self.description = description
    }
}
