/// A blocked Bloom filter over the keys of an ``IndexRun``: answers "certainly not in the run"
/// for most keys that are not, reading one 64-byte block in memory instead of searching the
/// run's file (a new command id or stream is the common case when appending).
///
/// About 10 bits per key and 4 bits set per key in one block of 512 bits: roughly 1–2% of
/// absent keys still go to the run's search, which gives the exact answer.
final class KeyFilter: @unchecked Sendable {
    // @unchecked: the words are written only in init and never change afterwards.
    let words: UnsafeMutablePointer<UInt64>
    let blocks: Int

    /// A filter holding every key in `keys`.
    init(count: Int, keys: (Int) -> UInt64) {
        blocks = max(1, (count * 10 + 511) / 512)
        words = .allocate(capacity: blocks * 8)
        words.initialize(repeating: 0, count: blocks * 8)
        let probe = Probe(words: UnsafePointer(words), blocks: blocks)
        for index in 0..<count { probe.insert(keys(index), into: words) }
    }

    deinit { words.deallocate() }

    /// The plain view the writer's lookups use (valid while the filter is alive).
    var probe: Probe { Probe(words: UnsafePointer(words), blocks: blocks) }

    /// The filter's bits, as plain data.
    struct Probe {
        let words: UnsafePointer<UInt64>
        let blocks: Int

        /// False when `key` is certainly not in the run.
        @inline(__always)
        func mayContain(_ key: UInt64) -> Bool {
            let block = words + Self.block(key, blocks) * 8
            for round in 0..<4 {
                let bit = Int(truncatingIfNeeded: key >> (UInt64(round) * 9)) & 511
                if block[bit >> 6] & (1 << UInt64(bit & 63)) == 0 { return false }
            }
            return true
        }

        func insert(_ key: UInt64, into target: UnsafeMutablePointer<UInt64>) {
            let block = target + Self.block(key, blocks) * 8
            for round in 0..<4 {
                let bit = Int(truncatingIfNeeded: key >> (UInt64(round) * 9)) & 511
                block[bit >> 6] |= 1 << UInt64(bit & 63)
            }
        }

        /// The block of `key`: from its high bits (the low ones pick the bits in the block).
        @inline(__always)
        private static func block(_ key: UInt64, _ blocks: Int) -> Int {
            Int(truncatingIfNeeded: ((key >> 32) &* UInt64(blocks)) >> 32)
        }
    }
}
