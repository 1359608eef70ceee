/// The root of a tree built leaf by leaf in O(log n) memory: it keeps the roots of the perfect
/// subtrees the leaves so far fill (a compact range), so a whole log streams through it once.
public struct MerkleRootBuilder: Sendable, Hashable {
    /// The number of leaves appended.
    public private(set) var size: Int = 0
    /// The roots of the perfect subtrees, largest (leftmost) first: one per set bit of `size`.
    private var peaks: [[UInt8]] = []

    /// An empty tree.
    public init() {}

    /// Appends a leaf by its hash (``MerkleHash/leaf(_:)``).
    public mutating func append(leafHash: [UInt8]) {
        var hash = leafHash
        var merged = size
        // Each trailing one bit of the old size is a peak of the same height as `hash`: merge it.
        while merged & 1 == 1 {
            hash = MerkleHash.node(peaks.removeLast(), hash)
            merged >>= 1
        }
        peaks.append(hash)
        size += 1
    }

    /// Appends a perfect subtree of `leaves` leaves by its root: what appending those leaves one
    /// by one gives, without their hashes (a tile's block root stands for its 256 leaves).
    /// - Precondition: `leaves` is a power of two that divides ``size``.
    public mutating func append(subtreeRoot: [UInt8], leaves: Int) {
        precondition(leaves > 0 && leaves & (leaves - 1) == 0 && size % leaves == 0, "not a subtree at this size")
        var hash = subtreeRoot
        var merged = size / leaves
        while merged & 1 == 1 {
            hash = MerkleHash.node(peaks.removeLast(), hash)
            merged >>= 1
        }
        peaks.append(hash)
        size += leaves
    }

    /// The root of the tree of the leaves appended so far (``MerkleHash/emptyRoot`` when none).
    public var root: [UInt8] { root(followedBy: MerkleRootBuilder()) }

    /// The root of the tree of these leaves followed by `tail`'s: for a tree kept as full blocks
    /// and the leaves of an unfinished one, without merging them.
    /// - Precondition: ``size`` is a multiple of a power of two larger than `tail`'s size (so the
    ///   tail's subtrees are the combined tree's smallest).
    public func root(followedBy tail: MerkleRootBuilder) -> [UInt8] {
        precondition(
            tail.size == 0 || size % (1 << (Int.bitWidth - tail.size.leadingZeroBitCount)) == 0,
            "the tail does not follow whole subtrees")
        let all = peaks + tail.peaks
        guard var hash = all.last else { return MerkleHash.emptyRoot }
        for peak in all.dropLast().reversed() {
            hash = MerkleHash.node(peak, hash)
        }
        return hash
    }
}
