/// SplitMix64: a tiny seeded generator, so every random test and benchmark input is reproducible (never the system
/// RNG). Shared by the test targets and the benchmarks.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform value in `range`.
    public mutating func double(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &self) }
    /// A uniform integer in `range`.
    public mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
    /// A fair coin.
    public mutating func bool() -> Bool { Bool.random(using: &self) }
    /// One of `values`, uniformly.
    public mutating func pick<T>(_ values: [T]) -> T { values[int(0...(values.count - 1))] }
}
