import AuditLog
import Foundation
import Proofs

/// The log's Merkle tree, its key and signed checkpoints, and the proofs an auditor checks
/// (`itemaudit proof …`, `verify --checkpoint`): what the CLI and the server ask, as text and
/// plain values. The tree is recomputed from the records (``LogTreeScan``).
///
/// Read-only calls never create a key or a checkpoint; ``makeCheckpoint(_:location:identity:)``
/// is the one that does.
public enum AuditProofs {
    /// Which key signs for the log and under what name.
    public struct LogIdentity: Sendable, Hashable {
        /// The key file (`--log-key`), or nil for `<data>/keys/log.key`.
        public var keyFile: String?
        /// The origin line and key name for a new key (`--log-origin`, else from `--public-url`).
        public var origin: String?

        public init(keyFile: String? = nil, origin: String? = nil, publicURL: String? = nil) {
            self.keyFile = keyFile
            self.origin = origin ?? publicURL.map(AuditProofs.origin(fromPublicURL:))
        }
    }

    /// A checkpoint's origin made from a public URL: without its scheme and trailing slash
    /// (`https://audit.example.com/` gives `audit.example.com`), as C2SP recommends.
    public static func origin(fromPublicURL url: String) -> String {
        var text = Substring(url)
        if let scheme = text.range(of: "://") { text = text[scheme.upperBound...] }
        while text.hasSuffix("/") { text = text.dropLast() }
        return String(text)
    }

    /// The log's verifier key in C2SP signed-note form (`name+keyID+base64`).
    /// - Throws: ``AuditServiceError`` `.invalidRequest` when there is no key yet (readers never make one).
    public static func verifierKey(_ directory: DataDirectory, keyFile: String? = nil) throws -> String {
        let file = LogKeyFile(directory: directory, explicit: keyFile)
        guard let key = try file.load() else {
            throw AuditServiceError(
                .invalidRequest,
                "there is no log key at \(file.url.path) yet (run `itemaudit proof checkpoint --log-origin NAME` once to make it)"
            )
        }
        return key.verifier.description
    }

    /// A checkpoint as made or kept.
    public struct CheckpointSummary: Sendable, Hashable, Encodable {
        public var origin: String
        public var size: Int
        /// The root hash, base64 as the checkpoint writes it.
        public var root: String
        /// Where it is kept.
        public var file: String
        /// The signed note.
        public var text: String
        /// Whether the log key was made for it (the first checkpoint).
        public var keyCreated: Bool?
    }

    /// Signs a checkpoint of the log as it is now and keeps it in `<data>/checkpoints/`; makes the
    /// log key on first use. Refuses to sign when the log no longer holds the tree of the latest
    /// kept checkpoint (a log must never sign two inconsistent trees). One use of a
    /// ``LogTreeKeeper``; `serve` keeps one open between its checkpoints.
    /// - Throws: ``AuditServiceError`` `.invalidRequest` (no key and no origin), `.logDamaged`
    ///   (inconsistent with a kept checkpoint), `.dataDirectory`, `.log`.
    public static func makeCheckpoint(
        _ directory: DataDirectory, location: LogStoreLocation = .dataDirectory, identity: LogIdentity
    ) throws -> CheckpointSummary {
        try LogKeyFile(directory: directory, explicit: identity.keyFile).requireUsable(origin: identity.origin)
        let store = try openStore(directory, location: location)
        defer { try? store.close() }
        var keeper = try LogTreeKeeper(directory, store: store, identity: identity)
        return try keeper.sign()
    }

    /// Whether the log key file exists.
    public static func hasLogKey(_ directory: DataDirectory, keyFile: String? = nil) -> Bool {
        FileManager.default.fileExists(atPath: LogKeyFile(directory: directory, explicit: keyFile).url.path)
    }

    /// The largest checkpoint kept in `<data>/checkpoints/`, or nil when none is.
    public static func latestCheckpoint(_ directory: DataDirectory) -> CheckpointSummary? {
        guard let latest = KeptCheckpoints(directory).latest() else { return nil }
        return summary(latest.checkpoint, file: latest.file)
    }

    /// The inclusion proof of the event at `position` in the tree of the latest kept checkpoint,
    /// as C2SP `tlog-proof` text (its `extra` line is the event's 56-byte leaf data, ``LogTreeLeaf``).
    /// - Throws: ``AuditServiceError`` `.invalidRequest` when no kept checkpoint covers `position`;
    ///   `.logDamaged` when the log no longer holds the checkpoint's tree.
    public static func inclusionProof(
        _ directory: DataDirectory, location: LogStoreLocation = .dataDirectory, position: UInt64
    ) throws -> String {
        guard position >= 1 else {
            throw AuditServiceError(.invalidRequest, "positions start at 1, not \(position)")
        }
        guard let latest = KeptCheckpoints(directory).latest(), latest.checkpoint.checkpoint.size >= position else {
            throw AuditServiceError(
                .invalidRequest,
                "no kept checkpoint covers position \(position) (run `itemaudit proof checkpoint` to sign the log as it is now)"
            )
        }
        let store = try openStore(directory, location: location)
        defer { try? store.close() }
        let size = latest.checkpoint.checkpoint.size
        try requireEvents(store, size: size, file: latest.file)
        let tree = LogTreeScan.tiled(store, size: size, tiles: TileStore(directory).blockHashes())
        try requireRoot(try tree.root(), of: latest.checkpoint, file: latest.file)
        let index = Int(position - 1)
        return ProofText.inclusion(
            leafData: try LogTreeScan.leafData(store, position: position), index: index,
            proof: try tree.inclusionProof(index: index), checkpoint: latest.checkpoint.text)
    }

    /// The consistency proof from the checkpoint `text` (read from `file`) to the latest kept one.
    /// - Throws: ``AuditServiceError`` `.invalidRequest` when `text` is no checkpoint or no kept
    ///   checkpoint is as large; `.logDamaged` when the log no longer holds the kept tree.
    public static func consistencyProof(
        _ directory: DataDirectory, location: LogStoreLocation = .dataDirectory, from text: String, file: String
    ) throws -> String {
        let old = try parse(text, file: file)
        return try consistencyProof(
            directory, location: location, fromSize: old.checkpoint.size, named: "\(file)'s tree")
    }

    /// The consistency proof from the tree of `oldSize` events to the latest kept checkpoint.
    /// - Throws: as ``consistencyProof(_:location:from:file:)``.
    public static func consistencyProof(
        _ directory: DataDirectory, location: LogStoreLocation = .dataDirectory, fromSize oldSize: Int,
        named name: String = "the tree"
    ) throws -> String {
        guard let latest = KeptCheckpoints(directory).latest(), latest.checkpoint.checkpoint.size >= oldSize else {
            throw AuditServiceError(
                .invalidRequest,
                "no kept checkpoint is as large as \(name) of size \(oldSize) (run `itemaudit proof checkpoint`)")
        }
        let store = try openStore(directory, location: location)
        defer { try? store.close() }
        let size = latest.checkpoint.checkpoint.size
        try requireEvents(store, size: size, file: latest.file)
        let tree = LogTreeScan.tiled(store, size: size, tiles: TileStore(directory).blockHashes())
        try requireRoot(try tree.root(), of: latest.checkpoint, file: latest.file)
        return ProofText.consistency(
            oldSize: oldSize, proof: try tree.consistencyProof(from: oldSize),
            checkpoint: latest.checkpoint.text)
    }

    /// What `verify --checkpoint` found.
    public struct CheckpointVerification: Sendable, Hashable, Encodable {
        /// `consistent` when the log still holds the checkpoint's tree and only grew since.
        public var status: String
        public var checkpointOrigin: String
        public var checkpointSize: Int
        /// The log's size now.
        public var logSize: Int
        /// The hashes in the consistency proof checked (nil when none could be made).
        public var proofHashes: Int?
        /// The largest checkpoint kept with the log that the log still matches (nil when none).
        public var consistentWithKeptUpTo: Int?
        /// What differs, one sentence each (empty when consistent).
        public var findings: [String]

        public var isConsistent: Bool { status == "consistent" }
    }

    /// Checks that the log still holds the tree of the checkpoint `text` (read from `file`): its
    /// signature by the log's key (`verifierKey`, else the key file's), a consistency proof from
    /// it to the log now, and the checkpoints kept with the log (two of the same size with
    /// different roots is a fork). Names what differs.
    /// - Throws: ``AuditServiceError`` `.invalidRequest` when `text` is no checkpoint or there is
    ///   no key to check it with.
    public static func verifyCheckpoint(
        _ directory: DataDirectory, location: LogStoreLocation = .dataDirectory, text: String, file: String,
        verifierKey: String? = nil, keyFile: String? = nil
    ) throws -> CheckpointVerification {
        let given = try parse(text, file: file)
        let key = try verifyingKey(directory, verifierKey: verifierKey, keyFile: keyFile)
        let size = given.checkpoint.size
        var result = CheckpointVerification(
            status: "consistent", checkpointOrigin: given.checkpoint.origin, checkpointSize: size, logSize: 0,
            findings: [])
        do { try given.verify(by: key) } catch {
            result.status = "inconsistent"
            result.findings.append("\(file): \(error.message) (key \(key.description))")
            return result
        }
        let store = try openStore(directory, location: location)
        defer { try? store.close() }
        let logSize = Int(store.lastPosition)
        result.logSize = logSize
        let kept = KeptCheckpoints(directory).all().filter { (try? $0.checkpoint.verify(by: key)) != nil }
        var sizes = Set(kept.map(\.checkpoint.checkpoint.size).filter { $0 <= logSize })
        sizes.insert(logSize)
        var plans: [MerkleProofPlan] = []
        if size <= logSize {
            sizes.insert(size)
            plans.append(try proofPlan(try MerkleProofPlan.consistency(from: size, to: logSize)))
        }
        let scan = try LogTreeScan.run(store, rootsAt: sizes, plans: plans, blockRoots: true)
        let root = given.checkpoint.root

        if size > logSize {
            result.findings.append(
                "the log holds \(logSize) events, fewer than the checkpoint's \(size): events after position \(logSize) were removed"
            )
        } else {
            result.proofHashes = scan.proofs[0].count
            do {
                try MerkleVerification.verifyConsistency(
                    oldSize: size, newSize: logSize, oldRoot: root, newRoot: scan.roots[logSize]!, proof: scan.proofs[0]
                )
            } catch {
                result.findings.append(
                    "the log's tree of size \(size) differs from the checkpoint's: root \(base64(root)) in \(file), \(base64(scan.roots[size]!)) in the log now (the consistency proof from \(size) to \(logSize) fails: \(error.message))"
                )
            }
        }
        for other in kept where other.checkpoint.checkpoint.size == size && other.checkpoint.checkpoint.root != root {
            result.findings.append(
                "a fork: the log's key signed two different trees of size \(size): root \(base64(root)) in \(file), \(base64(other.checkpoint.checkpoint.root)) in \(other.file.path)"
            )
        }
        let treeDiffers = !result.findings.isEmpty
        result.findings += storedTreeDisagreements(
            scan.blockRoots, stored: TileStore(directory).blockHashes(), directory)
        let matching = kept.filter { scan.roots[$0.checkpoint.checkpoint.size] == $0.checkpoint.checkpoint.root }
        let broken = kept.filter {
            $0.checkpoint.checkpoint.size <= logSize
                && scan.roots[$0.checkpoint.checkpoint.size] != $0.checkpoint.checkpoint.root
        }
        let matchingSizes = matching.map(\.checkpoint.checkpoint.size)
        result.consistentWithKeptUpTo = matchingSizes.filter { $0 <= min(size, logSize) }.max()
        if !result.findings.isEmpty {
            result.status = "inconsistent"
            // Only a kept tree smaller than the differing one bounds where the difference lies.
            let upTo = matchingSizes.filter { $0 < size }.max()
            result.consistentWithKeptUpTo = upTo
            let first = (upTo ?? 0) + 1
            let last = size
            if !treeDiffers {
                // Only the stored tree disagrees: the checkpoint's tree itself is intact.
            } else if let upTo {
                result.findings.append(
                    "the log still matches its kept checkpoint of size \(upTo): what differs lies in positions \(first)-\(last)"
                )
            } else if first <= last {
                result.findings.append(
                    "no checkpoint kept with the log matches it below size \(size): what differs lies somewhere in positions 1-\(last)"
                )
            }
            for other in broken where other.checkpoint.checkpoint.size != size {
                result.findings.append(
                    "the log no longer holds the tree of its own kept checkpoint of size \(other.checkpoint.checkpoint.size) (\(other.file.path))"
                )
            }
        }
        return result
    }

    // MARK: - Helpers

    /// The blocks of 256 positions whose recomputed root differs from the stored tree's.
    private static func storedTreeDisagreements(
        _ recomputed: [[UInt8]], stored: [[UInt8]], _ directory: DataDirectory
    ) -> [String] {
        let differing = zip(recomputed, stored).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        guard !differing.isEmpty else { return [] }
        let block = TiledTree.blockSize
        let ranges = differing.prefix(5).map { "\($0 * block + 1)-\(($0 + 1) * block)" }.joined(separator: ", ")
        let more = differing.count > 5 ? " and \(differing.count - 5) more blocks" : ""
        return [
            "the records at positions \(ranges)\(more) no longer give the hashes the stored tree (\(directory.tree.path)) holds for them: they were changed after the tree was stored, or its tile files were damaged"
        ]
    }

    private static func summary(_ checkpoint: SignedCheckpoint, file: URL) -> CheckpointSummary {
        CheckpointSummary(
            origin: checkpoint.checkpoint.origin, size: checkpoint.checkpoint.size,
            root: base64(checkpoint.checkpoint.root), file: file.path, text: checkpoint.text, keyCreated: nil)
    }

    private static func base64(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }

    private static func parse(_ text: String, file: String) throws -> SignedCheckpoint {
        do { return try SignedCheckpoint(text) } catch {
            throw AuditServiceError(.invalidRequest, "\(file) is not a signed checkpoint: \(error.message)")
        }
    }

    private static func proofPlan(
        _ make: @autoclosure () throws(MerkleProofError) -> MerkleProofPlan
    ) throws -> MerkleProofPlan {
        do { return try make() } catch { throw AuditServiceError(.invalidRequest, error.message) }
    }

    private static func verifyingKey(
        _ directory: DataDirectory, verifierKey: String?, keyFile: String?
    ) throws -> NoteVerifierKey {
        if let verifierKey {
            do { return try NoteVerifierKey(text: verifierKey) } catch {
                throw AuditServiceError(.invalidRequest, "--verifier-key is not a verifier key: \(error.message)")
            }
        }
        let file = LogKeyFile(directory: directory, explicit: keyFile)
        guard let key = try file.load() else {
            throw AuditServiceError(
                .invalidRequest,
                "no log key at \(file.url.path) to check the checkpoint's signature with (pass --verifier-key with the key `itemaudit proof key` printed)"
            )
        }
        return key.verifier
    }

    private static func requireEvents(_ store: any EventStore, size: Int, file: URL) throws {
        guard store.lastPosition >= size else {
            throw AuditServiceError(
                .logDamaged,
                "the log holds \(store.lastPosition) events, fewer than the \(size) of the checkpoint kept in \(file.path): events were removed (run `itemaudit verify --checkpoint \(file.path)`)"
            )
        }
    }

    private static func requireRoot(_ root: [UInt8]?, of checkpoint: SignedCheckpoint, file: URL) throws {
        guard root == checkpoint.checkpoint.root else {
            throw AuditServiceError(
                .logDamaged,
                "the log's tree of size \(checkpoint.checkpoint.size) differs from the checkpoint kept in \(file.path) (run `itemaudit verify --checkpoint \(file.path)`)"
            )
        }
    }

    /// The log at `location`, opened for reading.
    static func openStore(_ directory: DataDirectory, location: LogStoreLocation) throws -> any EventStore {
        try AuditQueries.open(directory, location: location).log
    }

    /// The leaf data of the event at `position`, read as the proofs read it (opening the log):
    /// `bench proof`'s baseline, reading one event.
    public static func leafData(
        _ directory: DataDirectory, location: LogStoreLocation = .dataDirectory, position: UInt64
    ) throws -> [UInt8] {
        let store = try openStore(directory, location: location)
        defer { try? store.close() }
        return try LogTreeScan.leafData(store, position: position)
    }

    /// The root of the log's tree over its first `size` records (all of them when nil), as
    /// 64 hex digits: the same for the same history in every store.
    public static func treeRoot(
        _ directory: DataDirectory, location: LogStoreLocation = .dataDirectory, size: UInt64? = nil
    ) throws -> String {
        let store = try openStore(directory, location: location)
        defer { try? store.close() }
        let size = Int(size ?? store.lastPosition)
        return RecordChain.hex(try LogTreeScan.run(store, rootsAt: [size]).roots[size]!)
    }
}
