import Testing

@testable import Projections

@Suite struct RowCacheTests {
    /// A cache of 4 rows at its capacity of 4, keyed 0..<4 and written by a first flush.
    private func full() -> RowCache<Int, String> {
        let cache = RowCache<Int, String>(capacity: 4, completeAfter: 0)
        for key in 0..<4 { cache.insert(key, "row \(key)") }
        cache.flush(at: 1) { _, _ in }
        return cache
    }

    @Test func anOverfullFlushKeepsTheRowsUsedSinceThePreviousFlush() {
        let cache = full()
        var loads: [Int] = []
        let load: (Int) -> String? = { key in
            loads.append(key)
            return "loaded \(key)"
        }
        cache.modify(1, load: load) { $0 += "!" }
        cache.insert(4, "row 4")
        var written: [Int] = []
        cache.flush(at: 2) { key, _ in written.append(key) }
        #expect(written.sorted() == [1, 4])
        #expect(!cache.isComplete)
        // 1 and 4 stay; the rows nobody used since the previous flush come back through `load`.
        #expect(cache.value(1, load: load) == "row 1!")
        #expect(cache.value(4, load: load) == "row 4")
        #expect(loads.isEmpty)
        #expect(cache.value(0, load: load) == "loaded 0")
        #expect(loads == [0])
    }

    @Test func whenMoreThanTheCapacityWasUsedTheFlushForgetsEveryRow() {
        let cache = full()
        for key in 0..<4 { _ = cache.value(key) { _ in nil } }
        cache.insert(4, "row 4")
        cache.flush(at: 2) { _, _ in }
        #expect(!cache.isComplete)
        var loads: [Int] = []
        for key in 0..<5 {
            _ = cache.value(key) { key in
                loads.append(key)
                return nil
            }
        }
        #expect(loads == Array(0..<5))
    }

    @Test func aCacheWithinItsCapacityForgetsNothingAndStaysComplete() {
        let cache = full()
        #expect(cache.isComplete)
        cache.flush(at: 2) { _, _ in }
        #expect(cache.isComplete)
        #expect(cache.value(3) { _ in "loaded" } == "row 3")
    }
}
