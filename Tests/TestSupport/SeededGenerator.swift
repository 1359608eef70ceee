/// A small deterministic random generator (SplitMix64) for seeded tests: the same seed gives the
/// same draws on every machine. Print the seed when a randomised test fails.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    /// The current state (the seed before the first draw).
    public var state: UInt64

    /// A generator starting at `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (`bound` > 0).
    public mutating func next(_ bound: UInt64) -> UInt64 { next() % bound }
}
