import AuditLog
import Foundation
import Inspection
import Logging
import Projections

/// `bench replay`: a full rebuild of every projection on a generated history, against the raw
/// log replay (in-place record views, every payload touched) measured in the same run.
public struct ReplayBenchmark: Sendable {
    public var events: Int
    public var directory: URL
    public var logger: Logger

    public init(events: Int, directory: URL, logger: Logger) {
        self.events = events
        self.directory = directory
        self.logger = logger
    }

    public func run(progress: @escaping @Sendable (String) -> Void = { _ in }) async throws -> BenchmarkReport {
        let logDirectory = directory.appendingPathComponent("log")
        progress("generating \(events) events")
        let clock = ManualClock(Timestamp(microsecondsSinceEpoch: 1_767_225_600_000_000))
        let writer = try EventLog.open(directory: logDirectory, clock: clock, logger: logger)
        var history = SampleHistory(seed: 0x5EED, products: max(200, events / 500), inspectors: 40)
        try await history.write(events: events, to: writer, clock: clock)
        try writer.close()
        let log = try EventLog.open(
            directory: logDirectory, configuration: .init(readOnly: true), logger: logger)
        let total = Int(log.lastPosition)

        progress("raw replay: in-place views")
        var touched = 0
        var viewed = 0
        let rawSeconds = try Self.time {
            try log.forEachRecordView { view in
                viewed += 1
                view.withPayload { touched &+= Int($0.first ?? 0) &+ $0.count }
            }
        }
        guard viewed == total else { throw BenchmarkFailure(message: "raw replay read \(viewed) of \(total) events") }

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

        if ProcessInfo.processInfo.environment["ITEMAUDIT_BENCH_EACH"] != nil {
            for name in ["directory", "batches", "quality", "inspectors", "coverage", "products"] {
                let scratch = try ProjectionStore.open(at: directory.appendingPathComponent("each-\(name).sqlite"))
                let each = try ProjectionRunner(logger: logger).catchUp(scratch, log: log, only: [name])
                progress("\(name): \(Int(Double(total) / each.seconds)) events/s")
            }
        }
        progress("rebuild: every projection")
        Self.resetPeakMemory()
        let store = try ProjectionStore.open(at: directory.appendingPathComponent("projections.sqlite"))
        let runner = ProjectionRunner(logger: logger)
        let report = try runner.catchUp(store, log: log)
        let peak = Self.peakMemoryMB()
        guard report.events == total else {
            throw BenchmarkFailure(message: "rebuild folded \(report.events) of \(total) events")
        }
        _ = touched &+ decoded
        return BenchmarkReport(results: [
            BenchmarkResult(
                name: "rebuild", value: Double(total) / report.seconds, unit: "events/s",
                baseline: Double(total) / rawSeconds),
            BenchmarkResult(
                name: "replay-decode", value: Double(total) / decodeSeconds, unit: "events/s",
                baseline: Double(total) / rawSeconds),
            BenchmarkResult(name: "memory", value: peak, unit: "MB", baseline: nil),
            BenchmarkResult(name: "events", value: Double(total), unit: "events", baseline: nil),
        ])
    }

    static func time(_ body: () throws -> Void) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// Resets the kernel's peak-RSS mark (VmHWM) so the rebuild's peak excludes the generation.
    static func resetPeakMemory() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
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
