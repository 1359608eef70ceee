import Proofs
import Testing

/// The streamed proofs (one pass over the leaves, O(log n) memory) agree with the in-memory tree.
@Suite struct MerkleProofPlanTests {
    /// A seeded SplitMix64, so the sizes and leaves are the same on every run.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

    static func tree(size: Int, generator: inout Generator) -> MerkleTree {
        MerkleTree(leafData: (0..<size).map { _ in withUnsafeBytes(of: generator.next()) { Array($0) } })
    }

    @Test func rootBuilderMatchesTheTreeAtEverySize() throws {
        var generator = Generator(state: 44)
        let tree = Self.tree(size: 300, generator: &generator)
        var builder = MerkleRootBuilder()
        #expect(builder.root == MerkleHash.emptyRoot)
        for (index, hash) in tree.leafHashes.enumerated() {
            builder.append(leafHash: hash)
            #expect(builder.size == index + 1)
            #expect(builder.root == (try tree.root(size: index + 1)), "size \(index + 1)")
        }
    }

    @Test func plannedProofsMatchTheTreeOnSeededRandomTrees() throws {
        var generator = Generator(state: 6962)
        for _ in 0..<40 {
            let size = 1 + generator.below(700)
            let tree = Self.tree(size: size, generator: &generator)
            for _ in 0..<10 {
                let newSize = 1 + generator.below(size)
                let index = generator.below(newSize)
                let inclusion = try MerkleProofPlan.inclusion(index: index, size: newSize)
                #expect(inclusion.hashes(tree.leafHashes) == (try tree.inclusionProof(index: index, size: newSize)))
                #expect(inclusion.leavesRead <= newSize)
                let oldSize = generator.below(newSize + 1)
                let consistency = try MerkleProofPlan.consistency(from: oldSize, to: newSize)
                let proof = consistency.hashes(tree.leafHashes)
                #expect(proof == (try tree.consistencyProof(from: oldSize, to: newSize)), "\(oldSize) to \(newSize)")
                try MerkleVerification.verifyConsistency(
                    oldSize: oldSize, newSize: newSize, oldRoot: try tree.root(size: oldSize),
                    newRoot: try tree.root(size: newSize), proof: proof)
            }
        }
    }

    @Test func plansRefuseIndexesOutsideTheTree() {
        #expect(throws: MerkleProofError.self) { try MerkleProofPlan.inclusion(index: 5, size: 5) }
        #expect(throws: MerkleProofError.self) { try MerkleProofPlan.consistency(from: 6, to: 5) }
    }
}
