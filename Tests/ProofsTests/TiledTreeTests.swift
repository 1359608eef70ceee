import Proofs
import Testing

/// The tree over stored block hashes (tiles from level 1 up) gives the in-memory tree's roots and
/// proofs, whether all, some or none of the blocks are stored.
@Suite struct TiledTreeTests {
    @Test func tiledProofsMatchTheTreeOnSeededRandomTrees() throws {
        var generator = MerkleProofPlanTests.Generator(state: 256)
        for _ in 0..<12 {
            let size = 1 + generator.below(3000)
            let tree = MerkleProofPlanTests.tree(size: size, generator: &generator)
            let blocks = TiledTree.blockRoots(tree.leafHashes)
            #expect(blocks.count == size / 256)
            let stored = generator.below(blocks.count + 1)
            var leavesRead = 0
            let tiled = TiledTree(size: size, blockHashes: Array(blocks.prefix(stored))) { range in
                leavesRead += range.count
                return Array(tree.leafHashes[range])
            }
            #expect(try tiled.root() == (try tree.root()))
            for _ in 0..<8 {
                let newSize = 1 + generator.below(size)
                let index = generator.below(newSize)
                let oldSize = generator.below(newSize + 1)
                leavesRead = 0
                #expect(
                    try tiled.inclusionProof(index: index, size: newSize)
                        == (try tree.inclusionProof(index: index, size: newSize)))
                if stored == blocks.count {
                    // With every block stored, a proof reads the leaves of at most two partial blocks.
                    #expect(leavesRead <= 2 * 256, "read \(leavesRead) leaves for leaf \(index) of \(newSize)")
                }
                #expect(
                    try tiled.consistencyProof(from: oldSize, to: newSize)
                        == (try tree.consistencyProof(from: oldSize, to: newSize)))
                #expect(try tiled.root(size: newSize) == (try tree.root(size: newSize)))
            }
        }
    }

    @Test func tilePathsAreC2SPs() {
        #expect(TilePath.path(level: 1, index: 0, width: 256) == "tile/1/000")
        #expect(TilePath.path(level: 1, index: 0, width: 17) == "tile/1/000.p/17")
        #expect(TilePath.path(level: 2, index: 1_234_067, width: 256) == "tile/2/x001/x234/067")
        #expect(TilePath.path(level: 1, index: 1000, width: 3) == "tile/1/x001/000.p/3")
    }
}
