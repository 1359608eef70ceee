import AuditLog
import AuditService
import Foundation
import Logging

/// `itemaudit bench log`: the event log against a plain SQLite events table, in one run.
///
/// Measures batch-append (durable per 1,000 events; 4 submitters, each awaiting each batch), concurrent-append (64 appenders, one
/// event per durable append), replay (read, decompress, check, decode to envelopes) and
/// bytes-per-event, with the same events for both. Batch-append and bytes-per-event are also
/// measured with the log's Merkle tree kept (``TreeKeptAppends``) against the log without it.
public struct LogBenchmark: Sendable {
    /// Concurrent submitters in batch-append, each awaiting each batch of 1,000 (the SQLite
    /// baseline appends its batches one after another: it has one writer).
    public static let batchSubmitters = 4

    public var events: Int
    public var concurrentEvents: Int
    public var baselineConcurrentEvents: Int
    public var directory: URL
    public var logger: Logger

    /// - Parameters:
    ///   - events: events for batch-append, replay and bytes-per-event.
    ///   - directory: scratch space; the benchmark writes `log/`, `tree-data/` (a log with its tree
    ///     and checkpoints) and `baseline.sqlite` in it.
    public init(events: Int, directory: URL, logger: Logger) {
        self.events = events
        self.concurrentEvents = max(6_400, min(events / 10, 100_000))
        self.baselineConcurrentEvents = max(640, min(events / 100, 3_200))
        self.directory = directory
        self.logger = logger
    }

    public func run(progress: (String) -> Void = { _ in }) async throws -> BenchmarkReport {
        var mix = InspectionEventMix(seed: 0x1A_2024)
        let batches: [[StreamAppend]] = stride(from: 0, to: events, by: 1_000).map { start in
            (start..<min(events, start + 1_000)).map { _ in mix.next() }
        }
        let logDirectory = directory.appendingPathComponent("log")
        let baselineURL = directory.appendingPathComponent("baseline.sqlite")

        progress("batch-append: event log, \(Self.batchSubmitters) submitters each awaiting each batch of 1,000")
        let log = try EventLog.open(directory: logDirectory, logger: logger)
        // Four submitters, each appending its share of the batches one at a time and awaiting
        // each: every batch is durable when its append returns, and batches that arrive while
        // the writer syncs share the next write and sync (group commit).
        let submitters = Self.batchSubmitters
        let shares = (0..<submitters).map { share in
            stride(from: share, to: batches.count, by: submitters).map { batches[$0] }
        }
        let appendSeconds = try await Self.time {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for share in shares {
                    group.addTask { for batch in share { _ = try await log.append(contentsOf: batch) } }
                }
                try await group.waitForAll()
            }
        }
        progress("batch-append: event log with its tree kept, a checkpoint every \(TreeKeptAppends.interval)")
        let treeData = DataDirectory(directory.appendingPathComponent("tree-data"))
        let treeLog = try EventLog.open(directory: treeData.log, logger: logger)
        let kept = try await TreeKeptAppends.run(store: treeLog, directory: treeData, batches: batches)
        progress("  \(kept.checkpoints) checkpoints signed")
        try treeLog.close()
        let treeBytes = try Self.bytes(in: treeData.log) + TreeKeptAppends.bytes(of: treeData)

        progress("batch-append: SQLite")
        var store = try SQLiteEventStore(url: baselineURL)
        let baselineAppendSeconds = try await Self.time {
            for batch in batches { try store.append(batch, recordedAt: 1_714_550_400_000_000) }
        }

        progress("replay: event log")
        var replayed = 0
        var payloadBytes = 0
        let replaySeconds = try await Self.time {
            try log.forEachRecord { record in
                replayed += 1
                // The payload is a view into the frame's buffer; count it without copying.
                payloadBytes &+= record.payloadCount
            }
        }
        guard replayed == events else {
            throw BenchmarkFailure(message: "replay read \(replayed) events, expected \(events)")
        }
        progress("replay: event log, in-place views")
        var viewed = 0
        let viewSeconds = try await Self.time {
            try log.forEachRecordView { view in
                viewed += 1
                payloadBytes &+= view.payloadCount
            }
        }
        guard viewed == events else {
            throw BenchmarkFailure(message: "view replay read \(viewed) events, expected \(events)")
        }
        progress("replay: SQLite")
        var baselineReplayed = 0
        let baselineReplaySeconds = try await Self.time {
            baselineReplayed = try store.replay { record in payloadBytes &+= record.payload.count }
        }
        guard baselineReplayed == events else {
            throw BenchmarkFailure(message: "baseline replay read \(baselineReplayed) events, expected \(events)")
        }

        try log.close()
        let logBytes = try Self.bytes(in: logDirectory)
        let baselineBytes = try store.bytesOnDisk()

        progress("concurrent-append: event log")
        let concurrentLog = try EventLog.open(
            directory: directory.appendingPathComponent("concurrent-log"), logger: logger)
        let concurrentSeconds = try await Self.concurrent(events: concurrentEvents, seed: 7) { append in
            _ = try await concurrentLog.append(contentsOf: [append])
        }
        try concurrentLog.close()
        progress("concurrent-append: SQLite")
        let concurrentStore = ConcurrentBaseline(
            store: try SQLiteEventStore(url: directory.appendingPathComponent("concurrent.sqlite")))
        let baselineConcurrentSeconds = try await Self.concurrent(events: baselineConcurrentEvents, seed: 7) {
            append in try await concurrentStore.append(append)
        }

        return BenchmarkReport(results: [
            BenchmarkResult(
                name: "batch-append", value: Double(events) / appendSeconds, unit: "events/s",
                baseline: Double(events) / baselineAppendSeconds),
            BenchmarkResult(
                name: "batch-append-with-tree", value: Double(events) / kept.seconds, unit: "events/s",
                baseline: Double(events) / appendSeconds),
            BenchmarkResult(
                name: "concurrent-append", value: Double(concurrentEvents) / concurrentSeconds, unit: "events/s",
                baseline: Double(baselineConcurrentEvents) / baselineConcurrentSeconds),
            BenchmarkResult(
                name: "replay", value: Double(events) / replaySeconds, unit: "events/s",
                baseline: Double(events) / baselineReplaySeconds),
            BenchmarkResult(
                name: "replay-view", value: Double(events) / viewSeconds, unit: "events/s",
                baseline: Double(events) / baselineReplaySeconds),
            BenchmarkResult(
                name: "bytes-per-event", value: Double(logBytes) / Double(events), unit: "bytes",
                baseline: Double(baselineBytes) / Double(events)),
            BenchmarkResult(
                name: "bytes-per-event-with-tree", value: Double(treeBytes) / Double(events), unit: "bytes",
                baseline: Double(logBytes) / Double(events)),
        ])
    }

    /// 64 appenders, each awaiting its own durable append of one event.
    private static func concurrent(
        events: Int, seed: UInt64, _ append: @escaping @Sendable (StreamAppend) async throws -> Void
    ) async throws -> Double {
        let appenders = 64
        var mix = InspectionEventMix(seed: seed)
        let work = (0..<appenders).map { _ in [StreamAppend]() }
        var perAppender = work
        for index in 0..<events { perAppender[index % appenders].append(mix.next()) }
        let prepared = perAppender
        return try await time {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for appends in prepared {
                    group.addTask { for item in appends { try await append(item) } }
                }
                try await group.waitForAll()
            }
        }
    }

    private static func time(_ body: () async throws -> Void) async throws -> Double {
        let start = ContinuousClock.now
        try await body()
        let elapsed = ContinuousClock.now - start
        return max(1e-9, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    private static func bytes(in directory: URL) throws -> UInt64 {
        try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasPrefix("segment-") }
            .reduce(0) { total, name in
                let path = directory.appendingPathComponent(name).path
                return total
                    + ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.uint64Value ?? 0)
            }
    }
}

/// The SQLite baseline shared by concurrent appenders: one transaction per append.
private actor ConcurrentBaseline {
    var store: SQLiteEventStore
    init(store: SQLiteEventStore) { self.store = store }
    func append(_ append: StreamAppend) throws { try store.append([append], recordedAt: 1_714_550_400_000_000) }
}

/// The benchmark could not complete: what went wrong.
public struct BenchmarkFailure: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
