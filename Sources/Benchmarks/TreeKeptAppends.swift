import AuditLog
import AuditService
import Foundation

/// `bench log`'s batch-append with the log's Merkle tree kept as `serve` keeps it: the same
/// submitters and batches, while a task extends the tree by the records appended since its last
/// update and signs a checkpoint every ``interval`` (`serve --checkpoint-seconds` at its
/// shortest), and once more after the last append. The time ends when the tree covers every
/// event, so the tree's whole cost is inside it.
enum TreeKeptAppends {
    /// The checkpoints' origin in the benchmark's data directories.
    static let origin = "bench.itemaudit.example/log"
    /// Between two updates of the tree.
    static let interval: Duration = .seconds(1)

    /// What one run measured.
    struct Figures {
        /// From the first append to the tree covering the last one.
        var seconds: Double
        /// Checkpoints signed (each one update of the tree).
        var checkpoints: Int
    }

    /// Appends `batches` to `store` (empty) from ``LogBenchmark/batchSubmitters`` submitters, each
    /// awaiting each batch, with the tree kept in `directory` (its `tree/`, `checkpoints/`, `keys/`).
    static func run(
        store: any EventStore, directory: DataDirectory, batches: [[StreamAppend]]
    ) async throws -> Figures {
        let submitters = LogBenchmark.batchSubmitters
        let shares = (0..<submitters).map { share in
            stride(from: share, to: batches.count, by: submitters).map { batches[$0] }
        }
        let start = ContinuousClock.now
        let keeping = Task { () async throws -> Int in
            var keeper = try LogTreeKeeper(directory, store: store, identity: .init(origin: origin))
            var signed = 0
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                if try await keeper.signIfGrown() != nil { signed += 1 }
            }
            // The appends are over: the tree is brought to the last one before the time ends.
            if try await keeper.signIfGrown() != nil { signed += 1 }
            return signed
        }
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for share in shares {
                    group.addTask { for batch in share { _ = try await store.append(contentsOf: batch) } }
                }
                try await group.waitForAll()
            }
        } catch {
            keeping.cancel()
            _ = try? await keeping.value
            throw error
        }
        keeping.cancel()
        let checkpoints = try await keeping.value
        let elapsed = ContinuousClock.now - start
        return Figures(
            seconds: max(1e-9, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18),
            checkpoints: checkpoints)
    }

    /// The bytes of every file under the tree's, the checkpoints' and the key's folders of `directory`.
    static func bytes(of directory: DataDirectory) -> UInt64 {
        [directory.tree, directory.checkpoints, directory.keys].reduce(0) { total, folder in
            let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.fileSizeKey])
            var bytes: UInt64 = 0
            while let url = files?.nextObject() as? URL {
                bytes += UInt64((try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0)
            }
            return total + bytes
        }
    }
}
