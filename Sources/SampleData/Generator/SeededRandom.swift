import Seeded

// The generator draws from the one seeded generator (SplitMix64, the Seeded module), so the same
// seed gives the same history; these are the shapes of draw it needs.
extension SeededRandom {
    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool { Double(next() >> 11) / Double(1 << 53) < p }

    /// An integer in `range`.
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

    /// An element of a non-empty array.
    mutating func pick<T>(_ items: [T]) -> T { items[Int(next() % UInt64(items.count))] }

    /// A `count`-digit decimal string.
    mutating func digits(_ count: Int) -> String {
        String((0..<count).map { _ in Character(String(next() % 10)) })
    }
}
