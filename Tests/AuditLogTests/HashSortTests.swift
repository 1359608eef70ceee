import Seeded
import Testing

@testable import AuditLog

@Suite struct HashSortTests {
    @Test("bucket sort of hashed keys gives the same order as a comparison sort: spread, narrowed and repeated keys")
    func sameOrder() {
        var random = SeededRandom(seed: 11)
        func next() -> UInt64 { random.next() }
        let spread = (0..<20_000).map { _ in next() }
        let narrowed = (0..<5_000).map { _ in next() & 3 }
        let repeated = (0..<3_000).map { index in index % 7 == 0 ? UInt64(42) : next() }
        for keys in [spread, narrowed, repeated, Array(spread.prefix(100))] {
            var entries = keys.enumerated().map { (key: $0.element, position: UInt64($0.offset)) }
            let order: ((key: UInt64, position: UInt64), (key: UInt64, position: UInt64)) -> Bool = {
                $0.key != $1.key ? $0.key < $1.key : $0.position < $1.position
            }
            let expected = entries.sorted(by: order)
            HashSort.sort(&entries, key: \.key, by: order)
            #expect(entries.map(\.key) == expected.map(\.key))
            #expect(entries.map(\.position) == expected.map(\.position))
        }
    }
}
