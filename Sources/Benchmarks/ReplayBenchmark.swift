import AuditLog
import Chronology
import Foundation
import Inspection
import Logging
import Projections

/// `bench replay`: a full rebuild of every projection on a generated history, against the raw
/// log replay measured in the same run: `rebuild` against ``EventLog/forEachRecord(from:upTo:_:)``
/// (what `bench log` calls replay), `rebuild-vs-views` against the in-place record views, and
/// `replay-decode` (views plus payload decoding) to show where the time goes.
///
/// `database-ceiling` is the rate the rebuild could reach if folding and decoding took no time:
/// events over the seconds its database thread spent writing rows and committing. `database-rows`
/// compares that thread's rows per second with SQLite alone inserting as many rows of the widest
/// shape (``SQLiteInsertFloor``), in the same run.
public struct ReplayBenchmark: Sendable {
    public var events: Int
    public var directory: URL
    public var logger: Logger

    public init(events: Int, directory: URL, logger: Logger) {
        self.events = events
        self.directory = directory
        self.logger = logger
    }

    /// Writes the seeded history of ``events`` events to `<directory>/log`.
    public func generate(progress: @escaping @Sendable (String) -> Void = { _ in }) async throws {
        progress("generating \(events) events")
        let clock = ManualClock(Timestamp(microsecondsSinceEpoch: 1_767_225_600_000_000))
        let writer = try EventLog.open(directory: directory.appendingPathComponent("log"), clock: clock, logger: logger)
        var history = SampleHistory(seed: 0x5EED, products: max(200, events / 500), inspectors: 40)
        try await history.write(events: events, to: writer, clock: clock)
        try writer.close()
    }

    /// Generates, then measures in this process (peak memory then includes the generation).
    public func run(progress: @escaping @Sendable (String) -> Void = { _ in }) async throws -> BenchmarkReport {
        try await generate(progress: progress)
        return try measure(progress: progress)
    }

    /// Replays `<directory>/log` raw, then rebuilds every projection from it into a new database;
    /// run it in a fresh process so the peak memory is the rebuild's own.
    public func measure(progress: @escaping @Sendable (String) -> Void = { _ in }) throws -> BenchmarkReport {
        let logDirectory = directory.appendingPathComponent("log")
        let log = try EventLog.open(
            directory: logDirectory, configuration: .init(readOnly: true), logger: logger)
        let total = Int(log.lastPosition)

        progress("raw replay: records (the log's replay, as bench log measures it)")
        var touched = 0
        var replayed = 0
        let rawSeconds = try Self.time {
            try log.forEachRecord { record in
                replayed += 1
                touched &+= record.payload.count
            }
        }
        guard replayed == total else {
            throw BenchmarkFailure(message: "raw replay read \(replayed) of \(total) events")
        }

        progress("raw replay: in-place views")
        var viewed = 0
        let viewSeconds = try Self.time {
            try log.forEachRecordView { view in
                viewed += 1
                view.withPayload { touched &+= Int($0.first ?? 0) &+ $0.count }
            }
        }
        guard viewed == total else { throw BenchmarkFailure(message: "view replay read \(viewed) of \(total) events") }

        progress("replay + payload decode")
        var decoded = 0
        let decodeSeconds = try Self.time {
            try log.forEachRecordView { view in
                let type = view.eventType
                let event = try view.withPayload { bytes throws(PayloadDecodingError) in
                    try InspectionEvent.decode(eventType: type, schemaVersion: Int(view.schemaVersion), payload: bytes)
                }
                if case .inspectionFinished = event { decoded += 1 }
            }
        }

        let beforeRebuild = Self.peakMemoryMB()
        progress("rebuild: every projection")
        let storeURL = directory.appendingPathComponent("projections.sqlite")
        ProjectionStore.remove(at: storeURL)
        let store = try ProjectionStore.open(at: storeURL)
        let runner = ProjectionRunner(logger: logger)
        let report = try runner.catchUp(store, log: log)
        let peak = Self.peakMemoryMB()
        guard report.events == total else {
            throw BenchmarkFailure(message: "rebuild folded \(report.events) of \(total) events")
        }
        _ = touched &+ decoded

        progress("SQLite alone: \(report.rowsWritten) task-shaped rows")
        let floor = try SQLiteInsertFloor.rowsPerSecond(
            rows: max(1, report.rowsWritten), at: directory.appendingPathComponent("floor.sqlite"))
        return BenchmarkReport(results: [
            BenchmarkResult(
                name: "rebuild", value: Double(total) / report.seconds, unit: "events/s",
                baseline: Double(total) / rawSeconds),
            BenchmarkResult(
                name: "rebuild-vs-views", value: Double(total) / report.seconds, unit: "events/s",
                baseline: Double(total) / viewSeconds),
            BenchmarkResult(
                name: "replay-decode", value: Double(total) / decodeSeconds, unit: "events/s",
                baseline: Double(total) / viewSeconds),
            BenchmarkResult(
                name: "database-ceiling", value: Double(total) / report.databaseSeconds, unit: "events/s",
                baseline: Double(total) / rawSeconds),
            BenchmarkResult(
                name: "database-rows", value: Double(report.rowsWritten) / report.databaseSeconds, unit: "rows/s",
                baseline: floor),
            BenchmarkResult(
                name: "rows-per-event", value: Double(report.rowsWritten) / Double(total), unit: "rows", baseline: nil),
            BenchmarkResult(name: "memory", value: peak, unit: "MB", baseline: nil),
            BenchmarkResult(name: "memory-before-rebuild", value: beforeRebuild, unit: "MB", baseline: nil),
            BenchmarkResult(name: "events", value: Double(total), unit: "events", baseline: nil),
        ])
    }

    static func time(_ body: () throws -> Void) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// Peak resident memory in MB (VmHWM from /proc/self/status); 0 where there is no /proc.
    static func peakMemoryMB() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let digits = line.filter(\.isNumber)
            return (Double(digits) ?? 0) / 1024
        }
        return 0
    }
}
