import Proofs
import Testing

/// The reference vectors Certificate Transparency's implementations test with
/// (transparency-dev/merkle `testonly` and `proof` tests): eight leaves, the roots of every
/// prefix, and inclusion and consistency proofs among them.
@Suite struct MerkleTreeKnownAnswerTests {
    static let leafInputs: [[UInt8]] = [
        "", "00", "10", "2021", "3031", "40414243", "5051525354555657", "606162636465666768696a6b6c6d6e6f",
    ].map(hex)

    static let roots: [String] = [
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
        "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
        "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
        "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
        "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
        "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
        "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
    ]

    /// (leaf index, tree size, audit path)
    static let inclusionProofs: [(Int, Int, [String])] = [
        (0, 1, []),
        (
            0, 8,
            [
                "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
                "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
            ]
        ),
        (
            5, 8,
            [
                "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
                "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
                "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
            ]
        ),
        (2, 3, ["fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"]),
        (
            1, 5,
            [
                "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
                "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
            ]
        ),
    ]

    /// (old size, new size, proof)
    static let consistencyProofs: [(Int, Int, [String])] = [
        (1, 1, []),
        (
            1, 8,
            [
                "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
                "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
            ]
        ),
        (
            6, 8,
            [
                "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
                "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
                "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
            ]
        ),
        (
            2, 5,
            [
                "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
            ]
        ),
        (
            6, 7,
            [
                "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
                "b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f",
                "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
            ]
        ),
    ]

    let tree = MerkleTree(leafData: Self.leafInputs)

    @Test func emptyTreeRootIsSHA256OfNothing() throws {
        #expect(try MerkleTree().root() == hex(Self.roots[0]))
    }

    @Test(arguments: 0...8) func rootOfEachPrefix(size: Int) throws {
        #expect(try tree.root(size: size) == hex(Self.roots[size]))
        #expect(try MerkleTree(leafData: Array(Self.leafInputs.prefix(size))).root() == hex(Self.roots[size]))
    }

    @Test func inclusionProofsMatchAndVerify() throws {
        for (index, size, expected) in Self.inclusionProofs {
            let proof = try tree.inclusionProof(index: index, size: size)
            #expect(proof == expected.map(hex), "leaf \(index) of \(size)")
            try MerkleVerification.verifyInclusion(
                leafHash: tree.leafHashes[index], index: index, size: size, proof: proof, root: hex(Self.roots[size]))
        }
    }

    @Test func consistencyProofsMatchAndVerify() throws {
        for (oldSize, newSize, expected) in Self.consistencyProofs {
            let proof = try tree.consistencyProof(from: oldSize, to: newSize)
            #expect(proof == expected.map(hex), "\(oldSize) to \(newSize)")
            try MerkleVerification.verifyConsistency(
                oldSize: oldSize, newSize: newSize, oldRoot: hex(Self.roots[oldSize]),
                newRoot: hex(Self.roots[newSize]), proof: proof)
        }
    }

    @Test func everyProofAmongAllSizesVerifies() throws {
        for size in 1...8 {
            for index in 0..<size {
                let proof = try tree.inclusionProof(index: index, size: size)
                try MerkleVerification.verifyInclusion(
                    leafHash: tree.leafHashes[index], index: index, size: size, proof: proof,
                    root: hex(Self.roots[size]))
            }
            for oldSize in 0...size {
                let proof = try tree.consistencyProof(from: oldSize, to: size)
                try MerkleVerification.verifyConsistency(
                    oldSize: oldSize, newSize: size, oldRoot: hex(Self.roots[oldSize]), newRoot: hex(Self.roots[size]),
                    proof: proof)
            }
        }
    }

    @Test func alteredProofsAreRejected() throws {
        for (index, size, expected) in Self.inclusionProofs where !expected.isEmpty {
            for position in expected.indices {
                var proof = expected.map(hex)
                proof[position][0] ^= 0x01
                #expect(throws: MerkleProofError.self) {
                    try MerkleVerification.verifyInclusion(
                        leafHash: tree.leafHashes[index], index: index, size: size, proof: proof,
                        root: hex(Self.roots[size]))
                }
            }
            #expect(throws: MerkleProofError.self) {
                try MerkleVerification.verifyInclusion(
                    leafHash: tree.leafHashes[index], index: index, size: size,
                    proof: Array(expected.map(hex).dropLast()),
                    root: hex(Self.roots[size]))
            }
        }
        for (oldSize, newSize, expected) in Self.consistencyProofs where !expected.isEmpty {
            for position in expected.indices {
                var proof = expected.map(hex)
                proof[position][0] ^= 0x01
                #expect(throws: MerkleProofError.self) {
                    try MerkleVerification.verifyConsistency(
                        oldSize: oldSize, newSize: newSize, oldRoot: hex(Self.roots[oldSize]),
                        newRoot: hex(Self.roots[newSize]), proof: proof)
                }
            }
        }
        // A fork: another tree of the same size is not consistent with the kept one.
        #expect(throws: MerkleProofError.self) {
            try MerkleVerification.verifyConsistency(
                oldSize: 4, newSize: 4, oldRoot: hex(Self.roots[4]), newRoot: hex(Self.roots[5]), proof: [])
        }
    }
}

func hex(_ string: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = string.startIndex
    while index < string.endIndex {
        let next = string.index(index, offsetBy: 2)
        bytes.append(UInt8(string[index..<next], radix: 16)!)
        index = next
    }
    return bytes
}
