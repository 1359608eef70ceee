import Crypto

/// RFC 6962 §2.1 hashing: SHA-256 with a one-byte prefix that keeps a leaf from ever hashing
/// like an interior node (second-preimage resistance).
public enum MerkleHash {
    /// The root of the empty tree: SHA-256 of no bytes.
    public static let emptyRoot: [UInt8] = Array(SHA256.hash(data: [UInt8]()))

    /// The hash of a leaf: SHA-256(0x00 ‖ data).
    public static func leaf(_ data: some Sequence<UInt8>) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: [0x00])
        hasher.update(data: Array(data))
        return Array(hasher.finalize())
    }

    /// The hash of an interior node: SHA-256(0x01 ‖ left ‖ right).
    public static func node(_ left: [UInt8], _ right: [UInt8]) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: [0x01])
        hasher.update(data: left)
        hasher.update(data: right)
        return Array(hasher.finalize())
    }
}
