import CropKit
import Dispatch

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A monotonic clock for the times the commands report.
package struct Stopwatch {
    private let start = DispatchTime.now().uptimeNanoseconds

    /// Seconds since the stopwatch was made.
    package var elapsed: Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
}
