/// An RFC 6962 / RFC 9162 Merkle tree over leaf hashes held in memory: its root, and the
/// inclusion and consistency proofs of RFC 9162 §2.1.3 and §2.1.4 for any earlier size.
///
/// Stores that keep the tree on disk recompute level 0 from the records and hand the leaf
/// hashes here, so the proofs are defined in one place.
public struct MerkleTree: Sendable {
    /// The leaf hashes in position order (level 0).
    public private(set) var leafHashes: [[UInt8]]

    /// A tree over the given leaf hashes.
    public init(leafHashes: [[UInt8]] = []) {
        self.leafHashes = leafHashes
    }

    /// A tree whose leaves are the given leaf data, hashed with `MerkleHash.leaf`.
    public init(leafData: [[UInt8]]) {
        self.leafHashes = leafData.map { MerkleHash.leaf($0) }
    }

    /// The number of leaves.
    public var size: Int { leafHashes.count }

    /// Adds one leaf by its data.
    public mutating func append(leafData: some Sequence<UInt8>) {
        leafHashes.append(MerkleHash.leaf(leafData))
    }

    /// The root of the tree made of the first `size` leaves (MTH of RFC 9162 §2.1.1).
    public func root(size: Int? = nil) throws(MerkleProofError) -> [UInt8] {
        let size = size ?? leafHashes.count
        guard size >= 0, size <= leafHashes.count else {
            throw MerkleProofError(.sizeBeyondTree, "tree size \(size) is beyond the tree's \(leafHashes.count) leaves")
        }
        return size == 0 ? MerkleHash.emptyRoot : subtreeRoot(0, size)
    }

    /// The audit path of leaf `index` in the tree of the first `size` leaves (PATH, §2.1.3.1).
    public func inclusionProof(index: Int, size: Int? = nil) throws(MerkleProofError) -> [[UInt8]] {
        let size = size ?? leafHashes.count
        guard size <= leafHashes.count else {
            throw MerkleProofError(.sizeBeyondTree, "tree size \(size) is beyond the tree's \(leafHashes.count) leaves")
        }
        guard index >= 0, index < size else {
            throw MerkleProofError(.indexBeyondSize, "leaf \(index) is not in a tree of size \(size)")
        }
        var path: [[UInt8]] = []
        path.reserveCapacity(64)
        auditPath(index, 0, size, into: &path)
        return path
    }

    /// The proof that the tree of size `oldSize` is a prefix of the tree of size `newSize`
    /// (PROOF, §2.1.4.1); empty when either size is 0 or they are equal.
    public func consistencyProof(from oldSize: Int, to newSize: Int? = nil) throws(MerkleProofError) -> [[UInt8]] {
        let newSize = newSize ?? leafHashes.count
        guard newSize <= leafHashes.count else {
            throw MerkleProofError(
                .sizeBeyondTree, "tree size \(newSize) is beyond the tree's \(leafHashes.count) leaves")
        }
        guard oldSize >= 0, oldSize <= newSize else {
            throw MerkleProofError(.indexBeyondSize, "old size \(oldSize) is larger than new size \(newSize)")
        }
        var proof: [[UInt8]] = []
        if oldSize == 0 || oldSize == newSize { return proof }
        subproof(oldSize, 0, newSize, complete: true, into: &proof)
        return proof
    }

    // MARK: - Recursions of RFC 9162 over the half-open leaf range [start, end).

    private func subtreeRoot(_ start: Int, _ end: Int) -> [UInt8] {
        let count = end - start
        if count == 1 { return leafHashes[start] }
        let split = Self.largestPowerOfTwo(below: count)
        return MerkleHash.node(subtreeRoot(start, start + split), subtreeRoot(start + split, end))
    }

    private func auditPath(_ index: Int, _ start: Int, _ end: Int, into path: inout [[UInt8]]) {
        let count = end - start
        if count == 1 { return }
        let split = Self.largestPowerOfTwo(below: count)
        if index < split {
            auditPath(index, start, start + split, into: &path)
            path.append(subtreeRoot(start + split, end))
        } else {
            auditPath(index - split, start + split, end, into: &path)
            path.append(subtreeRoot(start, start + split))
        }
    }

    private func subproof(_ m: Int, _ start: Int, _ end: Int, complete: Bool, into proof: inout [[UInt8]]) {
        let count = end - start
        if m == count {
            if !complete { proof.append(subtreeRoot(start, end)) }
            return
        }
        let split = Self.largestPowerOfTwo(below: count)
        if m <= split {
            subproof(m, start, start + split, complete: complete, into: &proof)
            proof.append(subtreeRoot(start + split, end))
        } else {
            subproof(m - split, start + split, end, complete: false, into: &proof)
            proof.append(subtreeRoot(start, start + split))
        }
    }

    /// The largest power of two strictly less than `n` (n ≥ 2), the split point k of RFC 9162.
    static func largestPowerOfTwo(below n: Int) -> Int {
        1 << (Int.bitWidth - 1 - (n - 1).leadingZeroBitCount)
    }
}
