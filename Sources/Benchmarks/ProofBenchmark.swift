import AuditService
import Foundation
import Seeded

/// `bench proof`: how long an inclusion proof and a consistency proof take on a large log (the
/// tree stored in tiles, level 0 recomputed from the records), against reading one event through
/// the same path (opening the log read-only, as the `proof` commands do). Positions are seeded.
public enum ProofBenchmark {
    /// The checkpoints' origin in the benchmark's data directory.
    static let origin = "bench.itemaudit.example/log"

    /// Fills `directory`'s log to `events` when it holds none, signs a checkpoint (extending the
    /// tiles), then times `samples` proofs of each kind and `samples` single-event reads.
    public static func run(
        directory: DataDirectory, events: Int, samples: Int, seed: UInt64, progress: (String) -> Void
    ) async throws -> BenchmarkReport {
        if !directory.holdsEvents {
            progress("filling \(directory.log.path) with \(events) events")
            try await LogTools.fill(
                directory: directory.log, events: events, batch: 1000, hold: false, segmentSize: 256 << 20,
                checkpointInterval: 64 << 20
            ) { _ in }
        }
        progress("signing a checkpoint (stores the tree's tiles on first use)")
        let started = DispatchTime.now()
        let checkpoint = try AuditProofs.makeCheckpoint(
            directory, identity: .init(origin: AuditProofs.hasLogKey(directory) ? nil : origin))
        let checkpointSeconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        let size = checkpoint.size
        var generator = SeededRandom(seed: seed)
        var inclusion: [Double] = []
        var consistency: [Double] = []
        var reads: [Double] = []
        for _ in 0..<samples {
            let position = UInt64(1 + Int(generator.next() % UInt64(size)))
            reads.append(try time { _ = try AuditProofs.leafData(directory, position: position) })
            inclusion.append(try time { _ = try AuditProofs.inclusionProof(directory, position: position) })
            let oldSize = 1 + Int(generator.next() % UInt64(size))
            consistency.append(try time { _ = try AuditProofs.consistencyProof(directory, fromSize: oldSize) })
        }
        let where_ = "file log, \(size) events"
        return BenchmarkReport(results: [
            BenchmarkResult(
                name: "checkpoint and tiles (\(where_))", value: checkpointSeconds, unit: "s", baseline: nil),
            BenchmarkResult(
                name: "inclusion proof p50 vs reading one event", value: percentile(inclusion, 0.5), unit: "ms",
                baseline: percentile(reads, 0.5)),
            BenchmarkResult(
                name: "inclusion proof p99 vs reading one event", value: percentile(inclusion, 0.99), unit: "ms",
                baseline: percentile(reads, 0.99)),
            BenchmarkResult(
                name: "consistency proof p50 vs reading one event", value: percentile(consistency, 0.5), unit: "ms",
                baseline: percentile(reads, 0.5)),
            BenchmarkResult(
                name: "consistency proof p99 vs reading one event", value: percentile(consistency, 0.99), unit: "ms",
                baseline: percentile(reads, 0.99)),
        ])
    }

    /// Milliseconds `body` took.
    static func time(_ body: () throws -> Void) throws -> Double {
        let start = DispatchTime.now()
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
    }

    /// The `fraction` percentile of `values` (nearest rank).
    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, max(0, Int((fraction * Double(sorted.count)).rounded(.up)) - 1))]
    }
}
