import AuditLog
import Chronology
import Foundation
import Logging

/// The hidden measurement commands of the CLI (`log-fill`, `log-open`, `sample-history`): they
/// write straight to a log folder, bypassing the application, to measure and crash-test it.
public enum LogTools {
    static let logger = Logger(label: "itemaudit.log-tools") { _ in SwiftLogNoOpLogHandler() }

    /// Appends `events` generated events to the log in `directory`, `batch` per durable append,
    /// calling `acknowledged` with each batch's last position once it is on disk. With `hold`,
    /// waits to be killed after the last append instead of closing the log.
    public static func fill(
        directory: URL, events: Int, batch: Int, hold: Bool, segmentSize: Int, checkpointInterval: Int,
        acknowledged: (UInt64) -> Void
    ) async throws {
        let configuration = EventLog.Configuration(segmentSize: segmentSize, checkpointInterval: checkpointInterval)
        let log: EventLog
        do {
            log = try EventLog.open(directory: directory, configuration: configuration, logger: logger)
        } catch {
            throw LogToolError(message: "cannot open the log: \(error)")
        }
        let start = log.lastPosition
        var written = 0
        var counter = start
        while written < events {
            let size = min(batch, events - written)
            let appends = (0..<size).map { offset -> StreamAppend in
                counter += 1
                let payload = Array("{\"n\":\(counter),\"pad\":\"\(String(repeating: "x", count: 120))\"}".utf8)
                return StreamAppend(
                    streamID: "fill-\(counter % 1_000)", expected: .any,
                    commandID: "fill-\(ProcessInfo.processInfo.processIdentifier)-\(counter)",
                    actor: "log-fill",
                    events: [
                        ProposedEvent(
                            eventType: "Filled", occurredAt: Timestamp(microsecondsSinceEpoch: 1_714_550_400_000_000),
                            payload: payload)
                    ])
            }
            let results = try await log.append(contentsOf: appends)
            if let last = results.last { acknowledged(last.positions.upperBound) }
            written += size
        }
        if hold {
            while true { try await Task.sleep(for: .seconds(60)) }
        }
        try log.close()
    }

    /// Opens the log in `directory` for writing and closes it, describing the open time and the
    /// recovery, then the close time, one line each.
    public static func openAndClose(directory: URL, line: (String) -> Void) throws {
        let start = ContinuousClock.now
        let log = try EventLog.open(directory: directory, logger: logger)
        let elapsed = ContinuousClock.now - start
        let recovery = log.recovery
        line(
            "opened in \(elapsed): lastPosition=\(log.lastPosition) framesVerified=\(recovery.framesVerified) rebuiltIndex=\(recovery.rebuiltIndex) bytesCut=\(recovery.bytesCut) reason=\(recovery.reason ?? "-")"
        )
        let closing = ContinuousClock.now
        try log.close()
        line("closed (checkpoint written) in \(ContinuousClock.now - closing)")
    }

    /// Appends about `events` events of a seeded sample history to the log in `directory` and
    /// returns its last position.
    public static func writeSampleHistory(directory: URL, events: Int, seed: UInt64, products: Int) async throws
        -> UInt64
    {
        let clock = ManualClock(Timestamp(microsecondsSinceEpoch: 1_767_225_600_000_000))
        let log: EventLog
        do {
            log = try EventLog.open(directory: directory, clock: clock, logger: logger)
        } catch {
            throw LogToolError(message: "cannot open the log: \(error)")
        }
        var history = SampleHistory(seed: seed, products: products)
        try await history.write(events: events, to: log, clock: clock)
        try log.close()
        return log.lastPosition
    }
}

/// A log the measurement commands cannot open.
public struct LogToolError: Error, Sendable {
    /// What went wrong.
    public var message: String
}
