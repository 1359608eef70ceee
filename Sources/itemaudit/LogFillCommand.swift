import ArgumentParser
import AuditLog
import Foundation
import Logging

/// Hidden: fills a log with generated events and prints each acknowledged position; used by the
/// crash test (killed with SIGKILL mid-way) and to build large logs for the reopen measurement.
struct LogFillCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log-fill",
        abstract: "Append generated events to <data>/log, printing each acknowledged last position.",
        discussion: """
            For tests and measurements: every line on stdout is a position that was durable when printed. \
            With --hold the process waits after the last append (to be killed) instead of closing the log.

            Example:
              itemaudit log-fill --data /tmp/fill --events 100000 --batch 1000
            """,
        shouldDisplay: false
    )

    @OptionGroup var data: DataDirectoryOption

    @Option(help: "Events to append.")
    var events: Int = 1_000

    @Option(help: "Events per append (one stream append per event, one durable batch).")
    var batch: Int = 1

    @Flag(help: "Wait to be killed after the last append instead of closing the log.")
    var hold = false

    @Option(help: "Segment size in bytes.")
    var segmentSize: Int = 256 << 20

    @Option(help: "Bytes between checkpoints.")
    var checkpointInterval: Int = 64 << 20

    func run() async throws {
        let logger = Logger(label: "itemaudit.log-fill") { _ in SwiftLogNoOpLogHandler() }
        let configuration = EventLog.Configuration(segmentSize: segmentSize, checkpointInterval: checkpointInterval)
        let log: EventLog
        do {
            log = try EventLog.open(
                directory: data.url.appendingPathComponent("log"), configuration: configuration, logger: logger)
        } catch {
            throw CLIFailure.badInput("cannot open the log: \(error)")
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
            let results = try await log.append(batch: appends)
            if let last = results.last {
                // One unbuffered write per acknowledgement, so a kill cannot lose a printed line.
                FileHandle.standardOutput.write(Data("\(last.positions.upperBound)\n".utf8))
            }
            written += size
        }
        if hold {
            while true { try await Task.sleep(for: .seconds(60)) }
        }
        try log.close()
    }
}

/// Hidden: opens a log (repairing it), and prints how long that took and what recovery found.
struct LogOpenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log-open",
        abstract: "Open <data>/log for writing and report the open time and recovery.",
        discussion: """
            Example:
              itemaudit log-open --data /tmp/fill
            """,
        shouldDisplay: false
    )

    @OptionGroup var data: DataDirectoryOption

    func run() throws {
        let logger = Logger(label: "itemaudit.log-open") { _ in SwiftLogNoOpLogHandler() }
        let start = ContinuousClock.now
        let log = try EventLog.open(directory: data.url.appendingPathComponent("log"), logger: logger)
        let elapsed = ContinuousClock.now - start
        let recovery = log.recovery
        let line =
            "opened in \(elapsed): lastPosition=\(log.lastPosition) framesVerified=\(recovery.framesVerified) rebuiltIndex=\(recovery.rebuiltIndex) bytesCut=\(recovery.bytesCut) reason=\(recovery.reason ?? "-")\n"
        FileHandle.standardOutput.write(Data(line.utf8))
        let closing = ContinuousClock.now
        try log.close()
        FileHandle.standardOutput.write(Data("closed (checkpoint written) in \(ContinuousClock.now - closing)\n".utf8))
    }
}
