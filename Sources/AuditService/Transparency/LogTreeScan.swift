import AuditLog
import Proofs

/// One pass over a store's records from position 1 that yields what proofs and checks need:
/// the tree's root at chosen sizes, the hashes of proof plans, and one leaf's data. The tree is
/// recomputed from the records (``LogTreeLeaf``), so the file log and PostgreSQL give the same
/// answers for the same history, and memory stays O(log n) whatever the log's size.
struct LogTreeScan {
    /// The roots at the sizes asked for.
    private(set) var roots: [Int: [UInt8]] = [:]
    /// The hashes of each plan, in the order the plans were given.
    private(set) var proofs: [[[UInt8]]] = []
    /// The leaf data of the position asked for.
    private(set) var leafData: [UInt8]?
    /// The roots of the full 256-leaf blocks read (tree level 8), when asked for.
    private(set) var blockRoots: [[UInt8]] = []

    /// Reads records 1 through the largest size or plan needs (at most the log's end).
    /// - Throws: what reading the store throws; ``AuditServiceError`` `.invalidRequest` when a
    ///   size is beyond the log.
    static func run(
        _ store: any EventStore, rootsAt sizes: Set<Int>, plans: [MerkleProofPlan] = [], leafAt position: UInt64? = nil,
        blockRoots: Bool = false
    ) throws -> LogTreeScan {
        let last = store.lastPosition
        let needed = UInt64(max(sizes.max() ?? 0, plans.map(\.leavesRead).max() ?? 0, Int(position ?? 0)))
        guard needed <= last else {
            throw AuditServiceError(
                .invalidRequest, "the log holds \(last) events, not \(needed): no tree of that size")
        }
        var scan = LogTreeScan()
        var builder = MerkleRootBuilder()
        var collectors = plans.map { MerkleProofPlan.Collector($0) }
        var block = MerkleRootBuilder()
        if sizes.contains(0) { scan.roots[0] = MerkleHash.emptyRoot }
        if needed > 0 {
            try store.forEachRecord(from: 1, upTo: needed) { record in
                let data = LogTreeLeaf.data(of: record)
                let hash = MerkleHash.leaf(data)
                if record.position == position { scan.leafData = data }
                builder.append(leafHash: hash)
                for index in collectors.indices { collectors[index].add(leafHash: hash) }
                if sizes.contains(builder.size) { scan.roots[builder.size] = builder.root }
                if blockRoots {
                    block.append(leafHash: hash)
                    if block.size == TiledTree.blockSize {
                        scan.blockRoots.append(block.root)
                        block = MerkleRootBuilder()
                    }
                }
            }
        }
        scan.proofs = collectors.map(\.hashes)
        return scan
    }

    /// The tree of `store`'s first `size` records over the stored tiles (missing ones are
    /// recomputed): roots and proofs read a few stored hashes and at most two blocks of records.
    static func tiled(_ store: any EventStore, size: Int, tiles: [[UInt8]]) -> TiledTree {
        TiledTree(size: size, blockHashes: tiles) { range in
            var hashes: [[UInt8]] = []
            hashes.reserveCapacity(range.count)
            try store.forEachRecord(from: UInt64(range.lowerBound + 1), upTo: UInt64(range.upperBound)) {
                hashes.append(MerkleHash.leaf(LogTreeLeaf.data(of: $0)))
            }
            return hashes
        }
    }

    /// The leaf data of the record at `position`.
    static func leafData(_ store: any EventStore, position: UInt64) throws -> [UInt8] {
        var data: [UInt8] = []
        try store.forEachRecord(from: position, upTo: position) { data = LogTreeLeaf.data(of: $0) }
        return data
    }
}
