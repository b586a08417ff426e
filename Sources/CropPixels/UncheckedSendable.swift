import Dispatch

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Carries a value the caller knows to be safe across threads (pointers into disjoint rows, a closure that
/// only writes its own rows).
package struct UncheckedSendable<T>: @unchecked Sendable {
    // @unchecked Sendable: by construction only; every use says why its value may cross (see the call sites).
    package let value: T
    package init(_ value: T) { self.value = value }
}
