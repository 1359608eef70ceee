/// The one seeded random number generator (SplitMix64): the same seed gives the same sequence on
/// every platform, so generated datasheets and histories, benchmark inputs and randomised tests
/// are reproducible. A randomised test prints its seed when it fails.
///
/// ```swift
/// var random = SeededRandom(seed: 2026)
/// let die = 1 + random.next(6)          // 1...6, the same on every run
/// let order = items.shuffled(using: &random)
/// ```
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator; equal seeds give equal sequences.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (`bound` > 0): the remainder of the next draw. Slightly biased
    /// towards small numbers, which test data and generated data do not mind, and, unlike
    /// `Int.random(in:using:)`, one draw per number whatever the standard library does, so
    /// recorded expectations stay valid.
    public mutating func next<Bound: FixedWidthInteger>(_ bound: Bound) -> Bound {
        Bound(next() % UInt64(bound))
    }
}
