/// A tree whose interior is stored as the hashes of tree level 8 and up (C2SP tlog-tiles
/// levels 1 and up: one hash per full 256-leaf block) while its leaves are recomputed from
/// the records on demand: roots and proofs read O(log n) stored hashes and the leaves of at most
/// two partial blocks.
///
/// `blockHashes[i]` is the root of leaves `256 i ..< 256 (i + 1)`; blocks past its end (not yet
/// stored) are computed from their leaves, so a tree with no stored hashes is still correct.
public struct TiledTree {
    /// The number of leaves in a block (a tile's width): 2^8.
    public static let blockSize = 256

    /// The number of leaves.
    public let size: Int
    /// The roots of the full blocks stored, in order (at most `size / 256`).
    public let blockHashes: [[UInt8]]
    /// The leaf hashes of a range of leaves (read from the records).
    private let leafHashes: (Range<Int>) throws -> [[UInt8]]

    public init(size: Int, blockHashes: [[UInt8]], leafHashes: @escaping (Range<Int>) throws -> [[UInt8]]) {
        self.size = size
        self.blockHashes = Array(blockHashes.prefix(size / Self.blockSize))
        self.leafHashes = leafHashes
    }

    /// The root of the first `size` leaves.
    public func root(size: Int? = nil) throws -> [UInt8] {
        let size = size ?? self.size
        guard size <= self.size else {
            throw MerkleProofError(.sizeBeyondTree, "tree size \(size) is beyond the tree's \(self.size) leaves")
        }
        return size == 0 ? MerkleHash.emptyRoot : try subtreeRoot(0..<size)
    }

    /// The audit path of leaf `index` in the tree of the first `size` leaves.
    public func inclusionProof(index: Int, size: Int? = nil) throws -> [[UInt8]] {
        try MerkleProofPlan.inclusion(index: index, size: size ?? self.size).ranges.map(subtreeRoot)
    }

    /// The consistency proof from the tree of `oldSize` leaves to the tree of `newSize`.
    public func consistencyProof(from oldSize: Int, to newSize: Int? = nil) throws -> [[UInt8]] {
        try MerkleProofPlan.consistency(from: oldSize, to: newSize ?? size).ranges.map(subtreeRoot)
    }

    /// The root of the leaves in `range`, a range of the RFC 9162 recursion (its start a multiple
    /// of the largest power of two below its length).
    public func subtreeRoot(_ range: Range<Int>) throws -> [UInt8] {
        guard range.upperBound <= size, !range.isEmpty else {
            throw MerkleProofError(.sizeBeyondTree, "leaves \(range) are not in a tree of size \(size)")
        }
        let count = range.count
        let block = Self.blockSize
        if count >= block, count & (count - 1) == 0, range.lowerBound % count == 0,
            range.upperBound / block <= blockHashes.count
        {
            var builder = MerkleRootBuilder()
            for hash in blockHashes[(range.lowerBound / block)..<(range.upperBound / block)] {
                builder.append(leafHash: hash)
            }
            return builder.root
        }
        if count <= block {
            var builder = MerkleRootBuilder()
            for hash in try leafHashes(range) { builder.append(leafHash: hash) }
            return builder.root
        }
        let split = MerkleTree.largestPowerOfTwo(below: count)
        return MerkleHash.node(
            try subtreeRoot(range.lowerBound..<(range.lowerBound + split)),
            try subtreeRoot((range.lowerBound + split)..<range.upperBound))
    }

    /// The roots of the full blocks of `leafHashes` (leaves from 0, in order): what a store keeps.
    public static func blockRoots(_ leafHashes: some Sequence<[UInt8]>) -> [[UInt8]] {
        var roots: [[UInt8]] = []
        var builder = MerkleRootBuilder()
        for hash in leafHashes {
            builder.append(leafHash: hash)
            if builder.size == blockSize {
                roots.append(builder.root)
                builder = MerkleRootBuilder()
            }
        }
        return roots
    }
}
