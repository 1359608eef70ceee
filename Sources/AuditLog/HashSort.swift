/// Sorts entries keyed by evenly spread 64-bit hashes (``KeyHash``) for the index runs a
/// checkpoint writes: one counting pass on the keys' top bits spreads them into buckets of a
/// few entries each, which are then sorted on their own. A few passes over the entries instead
/// of n·log n comparisons through a closure.
enum HashSort {
    /// Sorts `items` by `areInIncreasingOrder`, which must order by `key` first.
    static func sort<T>(_ items: inout [T], key: (T) -> UInt64, by areInIncreasingOrder: (T, T) -> Bool) {
        let count = items.count
        guard count > 256 else {
            items.sort(by: areInIncreasingOrder)
            return
        }
        // About eight entries per bucket (keys narrowed by a test mask just fill fewer buckets).
        var bits = 1
        while bits < 16 && (8 << (bits + 1)) <= count { bits += 1 }
        let shift = UInt64(64 - bits)
        var starts = [Int](repeating: 0, count: (1 << bits) + 1)
        for item in items { starts[Int(truncatingIfNeeded: key(item) >> shift) + 1] += 1 }
        for bucket in 0..<(1 << bits) { starts[bucket + 1] += starts[bucket] }
        var next = starts
        let source = items
        items = [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            for item in source {
                let bucket = Int(truncatingIfNeeded: key(item) >> shift)
                (buffer.baseAddress! + next[bucket]).initialize(to: item)
                next[bucket] += 1
            }
            initialized = count
        }
        items.withUnsafeMutableBufferPointer { buffer in
            for bucket in 0..<(1 << bits) {
                let range = starts[bucket]..<starts[bucket + 1]
                if range.count <= 16 {
                    insertionSort(buffer, range, by: areInIncreasingOrder)
                } else {
                    buffer[range].sort(by: areInIncreasingOrder)
                }
            }
        }
    }

    private static func insertionSort<T>(
        _ buffer: UnsafeMutableBufferPointer<T>, _ range: Range<Int>, by areInIncreasingOrder: (T, T) -> Bool
    ) {
        guard range.count > 1 else { return }
        for index in (range.lowerBound + 1)..<range.upperBound {
            let item = buffer[index]
            var slot = index
            while slot > range.lowerBound, areInIncreasingOrder(item, buffer[slot - 1]) {
                buffer[slot] = buffer[slot - 1]
                slot -= 1
            }
            buffer[slot] = item
        }
    }
}
