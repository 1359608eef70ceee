/// The subtrees a proof is made of, as leaf ranges, so a proof can be computed in one pass over
/// the leaves (a log too large to hold in memory streams through ``MerkleProofPlan/hashes(_:)``)
/// and a store that keeps subtree roots (tiles) can answer ranges without the leaves.
///
/// The ranges of one proof are disjoint (each is a sibling of the path to the leaf, or to the old
/// tree's root), listed in proof order, which is not leaf order.
public struct MerkleProofPlan: Sendable, Hashable {
    /// The half-open leaf ranges whose subtree roots, in this order, are the proof.
    public let ranges: [Range<Int>]
    /// The number of leaves the proof reads: the end of the last range in leaf order.
    public var leavesRead: Int { ranges.map(\.upperBound).max() ?? 0 }

    /// The plan of the audit path of leaf `index` in the tree of `size` leaves (PATH, RFC 9162 §2.1.3.1).
    public static func inclusion(index: Int, size: Int) throws(MerkleProofError) -> MerkleProofPlan {
        guard index >= 0, index < size else {
            throw MerkleProofError(.indexBeyondSize, "leaf \(index) is not in a tree of size \(size)")
        }
        var ranges: [Range<Int>] = []
        var (start, end) = (0, size)
        var path: [Range<Int>] = []
        // Walk down from the root; the siblings met on the way are the path, leaf end first.
        while end - start > 1 {
            let split = MerkleTree.largestPowerOfTwo(below: end - start)
            if index < start + split {
                path.append((start + split)..<end)
                end = start + split
            } else {
                path.append(start..<(start + split))
                start += split
            }
        }
        ranges = path.reversed()
        return MerkleProofPlan(ranges: ranges)
    }

    /// The plan of the proof that the tree of `oldSize` leaves is a prefix of the tree of
    /// `newSize` (PROOF, RFC 9162 §2.1.4.1); empty when either size is 0 or they are equal.
    public static func consistency(from oldSize: Int, to newSize: Int) throws(MerkleProofError) -> MerkleProofPlan {
        guard oldSize >= 0, oldSize <= newSize else {
            throw MerkleProofError(.indexBeyondSize, "old size \(oldSize) is larger than new size \(newSize)")
        }
        if oldSize == 0 || oldSize == newSize { return MerkleProofPlan(ranges: []) }
        var reversed: [Range<Int>] = []
        var (m, start, end, complete) = (oldSize, 0, newSize, true)
        while true {
            let count = end - start
            if m == count {
                if !complete { reversed.append(start..<end) }
                break
            }
            let split = MerkleTree.largestPowerOfTwo(below: count)
            if m <= split {
                reversed.append((start + split)..<end)
                end = start + split
            } else {
                reversed.append(start..<(start + split))
                m -= split
                start += split
                complete = false
            }
        }
        return MerkleProofPlan(ranges: reversed.reversed())
    }

    /// The proof's hashes, from the leaf hashes given in order from leaf 0 (at least
    /// ``leavesRead`` of them; the rest are not read).
    public func hashes(_ leafHashes: some Sequence<[UInt8]>) -> [[UInt8]] {
        var collector = Collector(self)
        for hash in leafHashes where !collector.isComplete { collector.add(leafHash: hash) }
        return collector.hashes
    }

    /// Gathers a plan's hashes from leaf hashes handed in one at a time from leaf 0, for
    /// callers that read the leaves through a callback (a store's records).
    public struct Collector: Sendable {
        private let ranges: [Range<Int>]
        /// The ranges' indexes in leaf order.
        private let order: [Int]
        private var results: [[UInt8]]
        private var next = 0
        private var leaf = 0
        private var builder = MerkleRootBuilder()

        public init(_ plan: MerkleProofPlan) {
            ranges = plan.ranges
            order = plan.ranges.indices.sorted { plan.ranges[$0].lowerBound < plan.ranges[$1].lowerBound }
            results = [[UInt8]](repeating: [], count: plan.ranges.count)
        }

        /// True when every hash of the proof is known (later leaves are not needed).
        public var isComplete: Bool { next == order.count }

        /// The proof's hashes (complete once ``isComplete``).
        public var hashes: [[UInt8]] { results }

        /// Hands in the next leaf's hash.
        public mutating func add(leafHash: [UInt8]) {
            defer { leaf += 1 }
            guard next < order.count else { return }
            let range = ranges[order[next]]
            guard range.contains(leaf) else { return }
            builder.append(leafHash: leafHash)
            if leaf == range.upperBound - 1 {
                results[order[next]] = builder.root
                builder = MerkleRootBuilder()
                next += 1
            }
        }
    }
}
