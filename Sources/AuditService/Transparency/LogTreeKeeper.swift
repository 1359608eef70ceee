import AuditLog
import Foundation
import Proofs

/// The log's tree kept up to date as the log grows, and the checkpoints signed over it: what
/// `serve` holds between its signed checkpoints, and what `proof checkpoint` uses once.
///
/// Opening reads the stored tiles and only the records after the last full block they hold (the
/// whole log the first time). After that, ``signIfGrown()`` reads only the records appended
/// since the last call: their leaves extend the tree's compact range (the roots of its full
/// blocks and the leaves of the unfinished one, O(log n) hashes), the tiles they finish or change
/// are written (``TileAppender``), and a checkpoint is signed only when the tree grew. The
/// records already in the tree are not read again: a record changed under a running writer is
/// caught by `verify --checkpoint`, which recomputes the tree from every record.
public struct LogTreeKeeper: Sendable {
    public let directory: DataDirectory
    /// The log read (the writer's own store in `serve`, so its appends are seen as they land).
    let store: any EventStore
    let identity: AuditProofs.LogIdentity
    private let keyFile: LogKeyFile

    /// The number of leaves (records) in the tree.
    public private(set) var size = 0
    /// The records read from the store since the keeper was opened: the work an update did.
    public private(set) var recordsRead = 0
    /// The tree's full 256-leaf blocks, each appended as one subtree by its root.
    private var blocks = MerkleRootBuilder()
    /// The leaves of the unfinished block after them.
    private var unfinished = MerkleRootBuilder()
    private var tiles: TileAppender
    /// The size of the latest kept checkpoint this keeper checked or signed (nil when none is kept).
    private var signedSize: Int?

    /// Opens the tree of `store`'s records kept in `directory`: reads the stored tiles, extends
    /// them to the log's last full block and checks the tree against the latest kept checkpoint.
    /// Makes no key and signs nothing.
    /// - Throws: ``AuditServiceError`` `.invalidRequest` (no key and no origin to make one),
    ///   `.logDamaged` (the log no longer holds the latest kept checkpoint's tree: a log must never
    ///   sign two inconsistent trees), `.dataDirectory`, and what reading the store throws.
    public init(_ directory: DataDirectory, store: any EventStore, identity: AuditProofs.LogIdentity) throws {
        self.directory = directory
        self.store = store
        self.identity = identity
        keyFile = LogKeyFile(directory: directory, explicit: identity.keyFile)
        try keyFile.requireUsable(origin: identity.origin)
        let logSize = Int(store.lastPosition)
        let latest = KeptCheckpoints(directory).latest()
        if let latest {
            guard latest.checkpoint.checkpoint.size <= logSize else {
                throw AuditServiceError(
                    .logDamaged,
                    "the log holds \(logSize) events, fewer than the \(latest.checkpoint.checkpoint.size) of the checkpoint kept in \(latest.file.path): events were removed; not signing (run `itemaudit verify --checkpoint \(latest.file.path)`)"
                )
            }
        }
        let tileStore = TileStore(directory)
        let stored = Array(tileStore.blockHashes().prefix(logSize / TilePath.width))
        tiles = TileAppender(tileStore, after: stored)
        for hash in stored { blocks.append(subtreeRoot: hash, leaves: TilePath.width) }
        size = stored.count * TilePath.width
        try extend(to: logSize)
        if let latest {
            let kept = latest.checkpoint.checkpoint
            let root =
                kept.size == size
                ? self.root
                : try LogTreeScan.tiled(store, size: size, tiles: tileStore.blockHashes()).root(size: kept.size)
            guard root == kept.root else {
                throw AuditServiceError(
                    .logDamaged,
                    "the log's tree of size \(kept.size) differs from the checkpoint kept in \(latest.file.path): not signing a tree inconsistent with one already signed (run `itemaudit verify --checkpoint \(latest.file.path)`)"
                )
            }
            signedSize = kept.size
        }
    }

    /// Opens the tree of `service`'s own log store, kept in its data directory (`serve`).
    /// - Throws: as ``init(_:store:identity:)``.
    public init(_ service: AuditService, identity: AuditProofs.LogIdentity) throws {
        try self.init(DataDirectory(service.dataDirectory), store: service.log, identity: identity)
    }

    /// The root of the tree of ``size`` leaves.
    public var root: [UInt8] { blocks.root(followedBy: unfinished) }

    /// Extends the tree to the log's last position and signs a checkpoint of it when it grew past
    /// the latest kept one (nil otherwise): `serve`'s schedule. When another process kept a
    /// checkpoint since (`proof checkpoint` beside a server), the keeper opens again, checking
    /// the tree against it.
    /// - Throws: as ``init(_:store:identity:)``, and `.logDamaged` when the log holds fewer
    ///   records than the tree.
    public mutating func signIfGrown() async throws -> AuditProofs.CheckpointSummary? {
        // Another server appending to the same PostgreSQL log is seen here.
        _ = try await store.refresh()
        if KeptCheckpoints(directory).latestNamedSize() != signedSize {
            let read = recordsRead
            self = try LogTreeKeeper(directory, store: store, identity: identity)
            recordsRead += read
        }
        try extend(to: Int(store.lastPosition))
        if let signedSize, signedSize >= size { return nil }
        return try sign()
    }

    /// Extends the tree to the log's last position and signs a checkpoint of it, making the log
    /// key on first use (`proof checkpoint`).
    /// - Throws: as ``signIfGrown()``; `.invalidRequest` when the key cannot sign.
    public mutating func sign() throws -> AuditProofs.CheckpointSummary {
        try extend(to: Int(store.lastPosition))
        let (key, created) = try keyFile.loadOrCreate(origin: identity.origin)
        let checkpoint = TreeCheckpoint(origin: key.verifier.name, size: size, root: root)
        let text: String
        do { text = try key.sign(checkpoint.text) } catch {
            throw AuditServiceError(.invalidRequest, "cannot sign the checkpoint: \(error.message)")
        }
        let kept = KeptCheckpoints(directory)
        try kept.keep(text, size: size)
        signedSize = size
        return AuditProofs.CheckpointSummary(
            origin: checkpoint.origin, size: size, root: Data(checkpoint.root).base64EncodedString(),
            file: kept.file(size: size).path, text: text, keyCreated: created)
    }

    /// Appends the leaves of records ``size`` + 1 through `target` and writes the tiles they change.
    private mutating func extend(to target: Int) throws {
        guard target >= size else {
            throw AuditServiceError(
                .logDamaged,
                "the log holds \(target) events, fewer than the \(size) its tree was extended to: events were removed; not signing (run `itemaudit verify --checkpoint`)"
            )
        }
        guard target > size else { return }
        var next = UInt64(size) + 1
        var blocks = self.blocks
        var unfinished = self.unfinished
        var tiles = self.tiles
        try store.forEachRecord(from: next, upTo: UInt64(target)) { record in
            guard record.position == next else {
                throw AuditServiceError(
                    .logDamaged,
                    "the log gave position \(record.position) where \(next) was due (run `itemaudit verify`)")
            }
            next += 1
            unfinished.append(leafHash: MerkleHash.leaf(LogTreeLeaf.data(of: record)))
            if unfinished.size == TilePath.width {
                let blockRoot = unfinished.root
                blocks.append(subtreeRoot: blockRoot, leaves: TilePath.width)
                try tiles.append(blockRoot: blockRoot)
                unfinished = MerkleRootBuilder()
            }
        }
        let read = Int(next) - size - 1
        recordsRead += read
        guard read == target - size else {
            throw AuditServiceError(
                .logDamaged, "the log gave \(read) of the events \(size + 1)-\(target) (run `itemaudit verify`)")
        }
        try tiles.flush()
        self.blocks = blocks
        self.unfinished = unfinished
        self.tiles = tiles
        size = target
    }
}
