/// Verification of RFC 9162 proofs (§2.1.3.2 and §2.1.4.2) using only hashes: what an auditor
/// runs without the log.
public enum MerkleVerification {
    /// Checks that `leafHash` is leaf `index` of the tree of `size` leaves with root `root`.
    public static func verifyInclusion(
        leafHash: [UInt8], index: Int, size: Int, proof: [[UInt8]], root: [UInt8]
    ) throws(MerkleProofError) {
        let computed = try rootFromInclusionProof(leafHash: leafHash, index: index, size: size, proof: proof)
        guard computed == root else {
            throw MerkleProofError(
                .rootMismatch,
                "the inclusion proof of leaf \(index) does not lead to the root of the tree of size \(size)")
        }
    }

    /// The root an inclusion proof leads to.
    public static func rootFromInclusionProof(
        leafHash: [UInt8], index: Int, size: Int, proof: [[UInt8]]
    ) throws(MerkleProofError) -> [UInt8] {
        guard index >= 0, index < size else {
            throw MerkleProofError(.indexBeyondSize, "leaf \(index) is not in a tree of size \(size)")
        }
        var fn = index
        var sn = size - 1
        var r = leafHash
        for p in proof {
            guard sn != 0 else {
                throw MerkleProofError(
                    .wrongProofLength, "the inclusion proof of leaf \(index) in size \(size) is too long")
            }
            if fn & 1 == 1 || fn == sn {
                r = MerkleHash.node(p, r)
                if fn & 1 == 0 {
                    while fn & 1 == 0 && fn != 0 {
                        fn >>= 1
                        sn >>= 1
                    }
                }
            } else {
                r = MerkleHash.node(r, p)
            }
            fn >>= 1
            sn >>= 1
        }
        guard sn == 0 else {
            throw MerkleProofError(
                .wrongProofLength, "the inclusion proof of leaf \(index) in size \(size) is too short")
        }
        return r
    }

    /// Checks that the tree of `oldSize` with `oldRoot` is a prefix of the tree of `newSize`
    /// with `newRoot`.
    public static func verifyConsistency(
        oldSize: Int, newSize: Int, oldRoot: [UInt8], newRoot: [UInt8], proof: [[UInt8]]
    ) throws(MerkleProofError) {
        guard oldSize >= 0, oldSize <= newSize else {
            throw MerkleProofError(.indexBeyondSize, "size \(oldSize) is larger than size \(newSize): the log shrank")
        }
        if oldSize == newSize {
            guard proof.isEmpty else {
                throw MerkleProofError(.wrongProofLength, "a consistency proof between equal sizes must be empty")
            }
            guard oldRoot == newRoot else {
                throw MerkleProofError(.rootMismatch, "two different trees of size \(oldSize)")
            }
            return
        }
        if oldSize == 0 {
            guard proof.isEmpty else {
                throw MerkleProofError(.wrongProofLength, "a consistency proof from the empty tree must be empty")
            }
            return
        }
        guard !proof.isEmpty else {
            throw MerkleProofError(.wrongProofLength, "the consistency proof from \(oldSize) to \(newSize) is empty")
        }
        var path = proof
        if oldSize & (oldSize - 1) == 0 { path.insert(oldRoot, at: 0) }
        var fn = oldSize - 1
        var sn = newSize - 1
        while fn & 1 == 1 {
            fn >>= 1
            sn >>= 1
        }
        var fr = path[0]
        var sr = path[0]
        for c in path.dropFirst() {
            guard sn != 0 else {
                throw MerkleProofError(
                    .wrongProofLength, "the consistency proof from \(oldSize) to \(newSize) is too long")
            }
            if fn & 1 == 1 || fn == sn {
                fr = MerkleHash.node(c, fr)
                sr = MerkleHash.node(c, sr)
                if fn & 1 == 0 {
                    while fn & 1 == 0 && fn != 0 {
                        fn >>= 1
                        sn >>= 1
                    }
                }
            } else {
                sr = MerkleHash.node(sr, c)
            }
            fn >>= 1
            sn >>= 1
        }
        guard sn == 0 else {
            throw MerkleProofError(
                .wrongProofLength, "the consistency proof from \(oldSize) to \(newSize) is too short")
        }
        guard fr == oldRoot else {
            throw MerkleProofError(.rootMismatch, "the tree of size \(oldSize) differs from the one kept")
        }
        guard sr == newRoot else {
            throw MerkleProofError(
                .rootMismatch, "the consistency proof does not lead to the root of the tree of size \(newSize)")
        }
    }
}
