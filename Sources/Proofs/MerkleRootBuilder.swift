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

    /// The root of the tree of the leaves appended so far (``MerkleHash/emptyRoot`` when none).
    public var root: [UInt8] {
        guard var hash = peaks.last else { return MerkleHash.emptyRoot }
        for peak in peaks.dropLast().reversed() {
            hash = MerkleHash.node(peak, hash)
        }
        return hash
    }
}
