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

    /// Reads records 1 through the largest size or plan needs (at most the log's end).
    /// - Throws: what reading the store throws; ``AuditServiceError`` `.invalidRequest` when a
    ///   size is beyond the log.
    static func run(
        _ store: any EventStore, rootsAt sizes: Set<Int>, plans: [MerkleProofPlan] = [], leafAt position: UInt64? = nil
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
        if sizes.contains(0) { scan.roots[0] = MerkleHash.emptyRoot }
        if needed > 0 {
            try store.forEachRecord(from: 1, upTo: needed) { record in
                let data = LogTreeLeaf.data(of: record)
                let hash = MerkleHash.leaf(data)
                if record.position == position { scan.leafData = data }
                builder.append(leafHash: hash)
                for index in collectors.indices { collectors[index].add(leafHash: hash) }
                if sizes.contains(builder.size) { scan.roots[builder.size] = builder.root }
            }
        }
        scan.proofs = collectors.map(\.hashes)
        return scan
    }
}
