import Foundation
import Proofs

/// The log's tree stored from level 1 up (tree levels 8, 16, …) in 256-hash tiles laid out as
/// C2SP tlog-tiles does, under `<data>/tree/tile/<L>/<N>[.p/<W>]`: 32 bytes per 256 events at
/// level 1, so bytes per event grow by about an eighth of a byte. Level 0 (the leaf hashes) is
/// not stored: ``TiledTree`` recomputes it from the records. Written only by the commands that
/// sign checkpoints (through ``LogTreeKeeper``, tile by tile as the log grows); a missing or
/// damaged tile ends what is read, and the rest is recomputed.
struct TileStore {
    /// The folder holding `tile/`.
    let folder: URL

    init(_ directory: DataDirectory) { folder = directory.tree }

    /// The stored roots of full 256-leaf blocks (level 1's hashes), in order, as far as the tiles
    /// reach without a gap.
    func blockHashes() -> [[UInt8]] {
        var hashes: [[UInt8]] = []
        var index = 0
        while true {
            if let full = read(level: 1, index: index, width: TilePath.width) {
                hashes += full
                index += 1
                continue
            }
            if let partial = widestPartial(level: 1, index: index) { hashes += partial }
            return hashes
        }
    }

    // MARK: - Files

    private func url(_ path: String) -> URL { folder.appendingPathComponent(path) }

    private func read(level: Int, index: Int, width: Int) -> [[UInt8]]? {
        guard
            let data = FileManager.default.contents(
                atPath: url(TilePath.path(level: level, index: index, width: width)).path),
            data.count == width * 32
        else { return nil }
        let bytes = [UInt8](data)
        return stride(from: 0, to: bytes.count, by: 32).map { Array(bytes[$0..<($0 + 32)]) }
    }

    private func partialFolder(level: Int, index: Int) -> URL {
        url(TilePath.path(level: level, index: index, width: TilePath.width) + ".p")
    }

    private func widestPartial(level: Int, index: Int) -> [[UInt8]]? {
        let names =
            (try? FileManager.default.contentsOfDirectory(atPath: partialFolder(level: level, index: index).path)) ?? []
        let widths = names.compactMap(Int.init).filter { (1..<TilePath.width).contains($0) }.sorted(by: >)
        for width in widths {
            if let hashes = read(level: level, index: index, width: width) { return hashes }
        }
        return nil
    }

    /// Writes `hashes` as tile `index` of `level` (a partial tile when fewer than 256), replacing
    /// narrower partial tiles of the same index.
    /// - Throws: ``AuditServiceError`` `.dataDirectory` when it cannot be written.
    func write(_ hashes: [[UInt8]], level: Int, index: Int) throws {
        let target = url(TilePath.path(level: level, index: index, width: hashes.count))
        let partials = partialFolder(level: level, index: index)
        do {
            try FileManager.default.createDirectory(
                at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            let temporary = target.deletingLastPathComponent().appendingPathComponent(
                ".\(target.lastPathComponent).tmp")
            try Data(hashes.flatMap { $0 }).write(to: temporary)
            guard rename(temporary.path, target.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        } catch {
            throw AuditServiceError(
                .dataDirectory, "cannot write the tree's tile (check permissions)", context: ["file": target.path])
        }
        // A wider tile replaces the narrower ones (readers take the widest that reads whole).
        if hashes.count == TilePath.width {
            try? FileManager.default.removeItem(at: partials)
        } else {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: partials.path)) ?? []
            where Int(name).map({ $0 < hashes.count }) ?? false {
                try? FileManager.default.removeItem(at: partials.appendingPathComponent(name))
            }
        }
    }
}

extension DataDirectory {
    /// The name of the stored tree's folder inside a data directory.
    public static let treeName = "tree"

    /// The log's Merkle tree from level 1 up, in C2SP tlog-tiles (``TileStore``).
    public var tree: URL { url.appendingPathComponent(Self.treeName, isDirectory: true) }
}
