import AuditLog
import AuditService
import Foundation
import Logging
import PostgresLog

/// `itemaudit bench log --store postgres://…`: the PostgreSQL store, with the file log measured in
/// the same run as the baseline, on the same events.
///
/// Figures for both: batch-append (4 submitters, each awaiting each durable batch of 1,000),
/// batch-append with the log's tree kept (``TreeKeptAppends``, against the same store without it),
/// concurrent-append (64 appenders, one event per durable append), replay and replay-view (read
/// everything in order). PostgreSQL only: subscription-lag (from an append's start on one store
/// to the position arriving through `LISTEN/NOTIFY` at a second store on its own connections), and
/// batch-append against the database floor (``PostgresInsertFloor``).
/// The peer, Python `eventsourcing` on the same cluster, is run by ``PeerBenchmark``.
/// Everything goes to a scratch database created on the cluster and dropped afterwards.
public struct StoreLogBenchmark: Sendable {
    public var events: Int
    public var concurrentEvents: Int
    public var lagSamples: Int
    /// The cluster: the scratch database is made beside the URL's database.
    public var url: PostgresStoreURL
    public var directory: URL
    public var logger: Logger

    /// - Throws: ``PostgresLog/PostgresLogError`` `.badURL` when `urlText` is not a PostgreSQL URL.
    public init(events: Int, urlText: String, directory: URL, logger: Logger) throws {
        self.init(events: events, url: try PostgresStoreURL(urlText), directory: directory, logger: logger)
    }

    public init(events: Int, url: PostgresStoreURL, directory: URL, logger: Logger) {
        self.events = events
        self.concurrentEvents = max(6_400, min(events / 10, 50_000))
        self.lagSamples = 1_000
        self.url = url
        self.directory = directory
        self.logger = logger
    }

    /// The figures of one store.
    struct Figures {
        var batchAppend: Double
        var batchAppendWithTree: Double
        var concurrentAppend: Double
        var replay: Double
        var replayView: Double
    }

    /// Runs the store figures, then the peer's from `peerScript` (nil: no peer figures).
    public func run(peerScript: URL?, progress: (String) -> Void = { _ in }) async throws -> BenchmarkReport {
        var report = try await run(progress: progress)
        guard let peerScript else { return report }
        let payloads = (0..<1_000).reduce(into: (InspectionEventMix(seed: 0x1A_2024), 0)) { state, _ in
            state.1 += state.0.next().events.reduce(0) { $0 + $1.payload.count }
        }.1
        progress("peer: Python eventsourcing on the same cluster (\(peerScript.path))")
        let peer = try PeerBenchmark(
            script: peerScript, events: events, concurrentEvents: concurrentEvents, payloadBytes: payloads / 1_000,
            url: url, logger: logger
        ).run()
        let ours = Dictionary(uniqueKeysWithValues: report.results.map { ($0.name, $0.value) })
        for (name, value) in [
            ("batch-append", peer.batchAppend), ("concurrent-append", peer.concurrentAppend), ("replay", peer.replay),
        ] {
            report.results.append(
                BenchmarkResult(
                    name: "\(name)-vs-eventsourcing", value: ours[name] ?? 0, unit: "events/s", baseline: value))
        }
        return report
    }

    public func run(progress: (String) -> Void = { _ in }) async throws -> BenchmarkReport {
        var mix = InspectionEventMix(seed: 0x1A_2024)
        let batches: [[StreamAppend]] = stride(from: 0, to: events, by: 1_000).map { start in
            (start..<min(events, start + 1_000)).map { _ in mix.next() }
        }
        let scratch = ["batch", "tree", "concurrent", "lag"].map {
            "itemaudit_bench_\(ProcessInfo.processInfo.processIdentifier)_\($0)"
        }
        defer { for name in scratch { try? PostgresAdmin.dropDatabase(name, on: url, logger: logger) } }
        var databases: [String: PostgresStoreURL] = [:]
        for (phase, name) in zip(["batch", "tree", "concurrent", "lag"], scratch) {
            databases[phase] = try PostgresAdmin.createDatabase(name, on: url, logger: logger)
        }

        progress("file log (baseline)")
        let file = try await measure(
            open: { name in
                try EventLog.open(
                    directory: name == "tree"
                        ? DataDirectory(directory.appendingPathComponent("file-tree-data")).log
                        : directory.appendingPathComponent(name),
                    logger: logger)
            },
            treeData: DataDirectory(directory.appendingPathComponent("file-tree-data")), batches: batches,
            progress: progress)
        progress("PostgreSQL \(url.redacted)")
        let options = PostgresEventStore.Options(poolSize: 16)
        let postgres = try await measure(
            open: { phase in
                guard let database = databases[phase] else {
                    throw BenchmarkFailure(message: "no database for \(phase)")
                }
                return try PostgresEventStore.open(url: database, options: options, logger: logger)
            }, treeData: DataDirectory(directory.appendingPathComponent("postgres-tree-data")), batches: batches,
            progress: progress)
        progress("database floor: the batch-append's events copied by PostgreSQL itself, 1,000 per transaction")
        guard let batchDatabase = databases["batch"] else { throw BenchmarkFailure(message: "no database for batch") }
        let floor = try PostgresInsertFloor.eventsPerSecond(database: batchDatabase, logger: logger)
        progress("subscription lag: \(lagSamples) appends, each awaited, seen through LISTEN/NOTIFY by a second store")
        guard let lagDatabase = databases["lag"] else { throw BenchmarkFailure(message: "no database for lag") }
        let lag = try await subscriptionLag(database: lagDatabase, options: options)

        func result(_ name: String, _ value: Double, _ baseline: Double, unit: String = "events/s") -> BenchmarkResult {
            BenchmarkResult(name: name, value: value, unit: unit, baseline: baseline)
        }
        return BenchmarkReport(results: [
            result("batch-append", postgres.batchAppend, file.batchAppend),
            result("batch-append-vs-database-floor", postgres.batchAppend, floor),
            result("batch-append-with-tree", postgres.batchAppendWithTree, postgres.batchAppend),
            result("file-batch-append-with-tree", file.batchAppendWithTree, file.batchAppend),
            result("concurrent-append", postgres.concurrentAppend, file.concurrentAppend),
            result("replay", postgres.replay, file.replay),
            result("replay-view", postgres.replayView, file.replayView),
            BenchmarkResult(name: "subscription-lag-p50-ms", value: lag.p50, unit: "ms", baseline: nil),
            BenchmarkResult(name: "subscription-lag-p99-ms", value: lag.p99, unit: "ms", baseline: nil),
            BenchmarkResult(name: "subscription-lag-max-ms", value: lag.max, unit: "ms", baseline: nil),
        ])
    }

    /// Batch-append, replays, batch-append with the tree kept in `treeData` and concurrent-append
    /// on stores `open` makes ("batch" first, then "tree" and "concurrent", each empty).
    private func measure(
        open: (String) throws -> any EventStore, treeData: DataDirectory, batches: [[StreamAppend]],
        progress: (String) -> Void
    ) async throws -> Figures {
        let store = try open("batch")
        let shares = (0..<LogBenchmark.batchSubmitters).map { share in
            stride(from: share, to: batches.count, by: LogBenchmark.batchSubmitters).map { batches[$0] }
        }
        progress("  batch-append")
        let appendSeconds = try await Self.time {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for share in shares {
                    group.addTask { for batch in share { _ = try await store.append(contentsOf: batch) } }
                }
                try await group.waitForAll()
            }
        }
        progress("  replay")
        var replayed = 0
        var bytes = 0
        let replaySeconds = try await Self.time {
            try store.forEachRecord(from: 1, upTo: nil) { record in
                replayed += 1
                bytes &+= record.payloadCount
            }
        }
        progress("  replay-view")
        var viewed = 0
        let viewSeconds = try await Self.time {
            try store.forEachRecordView(from: 1, upTo: nil) { view in
                viewed += 1
                bytes &+= view.payloadCount
            }
        }
        guard replayed == events, viewed == events else {
            throw BenchmarkFailure(message: "replay read \(replayed) and \(viewed) events, expected \(events)")
        }
        try store.close()
        progress("  batch-append with the tree kept, a checkpoint every \(TreeKeptAppends.interval)")
        let treeStore = try open("tree")
        let kept = try await TreeKeptAppends.run(store: treeStore, directory: treeData, batches: batches)
        try treeStore.close()
        progress("  concurrent-append: 64 appenders")
        let concurrent = try open("concurrent")
        var mix = InspectionEventMix(seed: 7)
        var perAppender = Array(repeating: [StreamAppend](), count: 64)
        for index in 0..<concurrentEvents { perAppender[index % 64].append(mix.next()) }
        let prepared = perAppender
        let concurrentSeconds = try await Self.time {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for appends in prepared {
                    group.addTask { for item in appends { _ = try await concurrent.append(contentsOf: [item]) } }
                }
                try await group.waitForAll()
            }
        }
        try concurrent.close()
        return Figures(
            batchAppend: Double(events) / appendSeconds, batchAppendWithTree: Double(events) / kept.seconds,
            concurrentAppend: Double(concurrentEvents) / concurrentSeconds,
            replay: Double(events) / replaySeconds, replayView: Double(events) / viewSeconds)
    }

    /// Milliseconds from an append's start to its position arriving at another store's subscription.
    private func subscriptionLag(database: PostgresStoreURL, options: PostgresEventStore.Options) async throws -> (
        p50: Double, p99: Double, max: Double
    ) {
        let writer = try PostgresEventStore.open(url: database, options: options, logger: logger)
        let reader = try PostgresEventStore.open(url: database, options: options, logger: logger)
        defer {
            try? writer.close()
            try? reader.close()
        }
        let subscription = PostgresLogSubscription(store: reader, pollInterval: .seconds(60))
        defer { subscription.stop() }
        let arrivals = ArrivalLog()
        let watcher = Task {
            for await position in subscription.positions { arrivals.record(position) }
        }
        defer { watcher.cancel() }
        // Wait until the subscription is listening: a first append must arrive.
        var mix = InspectionEventMix(seed: 99)
        let first = try await writer.append(contentsOf: [mix.next()])[0].positions.upperBound
        while arrivals.seen(first) == nil { try await Task.sleep(for: .milliseconds(5)) }
        var lags: [Double] = []
        for _ in 0..<lagSamples {
            let start = ContinuousClock.now
            let position = try await writer.append(contentsOf: [mix.next()])[0].positions.upperBound
            var seen = arrivals.seen(position)
            let deadline = start + .seconds(5)
            while seen == nil && ContinuousClock.now < deadline {
                try await Task.sleep(for: .microseconds(200))
                seen = arrivals.seen(position)
            }
            guard let seen else {
                throw BenchmarkFailure(message: "position \(position) never arrived at the subscriber")
            }
            let elapsed = seen - start
            lags.append(Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) / 1e15)
        }
        lags.sort()
        func percentile(_ p: Double) -> Double { lags[min(lags.count - 1, Int(Double(lags.count) * p))] }
        return (percentile(0.5), percentile(0.99), lags.last ?? 0)
    }

    static func time(_ body: () async throws -> Void) async throws -> Double {
        let start = ContinuousClock.now
        try await body()
        let elapsed = ContinuousClock.now - start
        return max(1e-9, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
}

/// When each position first arrived at the subscriber (positions arrive coalesced, in order).
private final class ArrivalLog: @unchecked Sendable {
    // @unchecked: guarded by `lock`.
    private let lock = NSLock()
    private var arrivals: [(position: UInt64, at: ContinuousClock.Instant)] = []

    func record(_ position: UInt64) {
        let now = ContinuousClock.now
        lock.withLock { arrivals.append((position, now)) }
    }

    /// The first arrival at or past `position`.
    func seen(_ position: UInt64) -> ContinuousClock.Instant? {
        lock.withLock { arrivals.first { $0.position >= position }?.at }
    }
}
