import Proofs

/// Writes the stored tree (``TileStore``) as block roots arrive, one at a time, as the log grows:
/// it holds the unfinished tile of each level (at most 255 hashes each), writes a tile once it is
/// full, and ``flush()`` writes the unfinished ones that changed. So extending the tree by k
/// events writes the tiles those k events touch, never the ones below them.
struct TileAppender: Sendable {
    let tiles: TileStore
    /// Per level (index 0 is tile level 1): the hashes of its unfinished tile.
    private var open: [[[UInt8]]] = []
    /// Per level: how many hashes the level holds, finished tiles included.
    private var counts: [Int] = []
    /// Per level: whether its unfinished tile changed since it was last written.
    private var changed: [Bool] = []

    /// Continues the tiles after `blockHashes` (level 1's hashes from the first, as stored): the
    /// unfinished tile of each level is computed from them, once.
    init(_ tiles: TileStore, after blockHashes: [[UInt8]]) {
        self.tiles = tiles
        var current = blockHashes
        while !current.isEmpty {
            let finished = current.count / TilePath.width * TilePath.width
            open.append(Array(current[finished...]))
            counts.append(current.count)
            changed.append(false)
            current = stride(from: 0, to: finished, by: TilePath.width).map {
                Self.root(of: current[$0..<($0 + TilePath.width)])
            }
        }
    }

    /// Appends the root of the next full 256-leaf block; writes every tile it finishes.
    /// - Throws: ``AuditServiceError`` `.dataDirectory` when a tile cannot be written.
    mutating func append(blockRoot: [UInt8]) throws {
        var hash = blockRoot
        var level = 0
        while true {
            if level == open.count {
                open.append([])
                counts.append(0)
                changed.append(false)
            }
            open[level].append(hash)
            counts[level] += 1
            guard open[level].count == TilePath.width else {
                changed[level] = true
                return
            }
            try tiles.write(open[level], level: level + 1, index: counts[level] / TilePath.width - 1)
            hash = Self.root(of: open[level][...])
            open[level] = []
            changed[level] = false
            level += 1
        }
    }

    /// Writes the unfinished tiles that changed since they were last written.
    /// - Throws: ``AuditServiceError`` `.dataDirectory` when a tile cannot be written.
    mutating func flush() throws {
        for level in open.indices where changed[level] && !open[level].isEmpty {
            try tiles.write(open[level], level: level + 1, index: counts[level] / TilePath.width)
            changed[level] = false
        }
    }

    /// The root of a full tile's hashes: the next level's hash.
    private static func root(of hashes: ArraySlice<[UInt8]>) -> [UInt8] {
        var builder = MerkleRootBuilder()
        for hash in hashes { builder.append(leafHash: hash) }
        return builder.root
    }
}
