import CLibCrypto
import Crypto

/// RFC 6962 §2.1 hashing: SHA-256 with a one-byte prefix that keeps a leaf from ever hashing
/// like an interior node (second-preimage resistance). Each hash is one call into the system
/// libcrypto over a buffer on the stack (``CLibCrypto``): keeping the tree hashes every appended
/// record's leaf and about one node, where swift-crypto's hasher allocates a context per hash.
public enum MerkleHash {
    /// The root of the empty tree: SHA-256 of no bytes.
    public static let emptyRoot: [UInt8] = Array(SHA256.hash(data: [UInt8]()))

    /// The hash of a leaf: SHA-256(0x00 ‖ data).
    public static func leaf(_ data: some Sequence<UInt8>) -> [UInt8] { leaf(Array(data)) }

    /// The hash of a leaf: SHA-256(0x00 ‖ data).
    public static func leaf(_ data: [UInt8]) -> [UInt8] {
        withUnsafeTemporaryAllocation(byteCount: data.count + 1, alignment: 1) { buffer in
            buffer[0] = 0x00
            data.withUnsafeBytes { bytes in
                if let source = bytes.baseAddress {
                    (buffer.baseAddress! + 1).copyMemory(from: source, byteCount: bytes.count)
                }
            }
            return digest(UnsafeRawBufferPointer(buffer))
        }
    }

    /// The hash of an interior node: SHA-256(0x01 ‖ left ‖ right).
    public static func node(_ left: [UInt8], _ right: [UInt8]) -> [UInt8] {
        withUnsafeTemporaryAllocation(byteCount: 1 + left.count + right.count, alignment: 1) { buffer in
            buffer[0] = 0x01
            left.withUnsafeBytes { bytes in
                if let source = bytes.baseAddress {
                    (buffer.baseAddress! + 1).copyMemory(from: source, byteCount: bytes.count)
                }
            }
            right.withUnsafeBytes { bytes in
                if let source = bytes.baseAddress {
                    (buffer.baseAddress! + 1 + left.count).copyMemory(from: source, byteCount: bytes.count)
                }
            }
            return digest(UnsafeRawBufferPointer(buffer))
        }
    }

    /// SHA-256 of `bytes` as a new array.
    private static func digest(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: 32) { target, count in
            itemaudit_sha256(bytes.baseAddress, bytes.count, target.baseAddress!)
            count = 32
        }
    }
}
