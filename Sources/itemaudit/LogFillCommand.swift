import ArgumentParser
import AuditService
import Benchmarks
import Foundation

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
        try data.requireFileLog("log-fill")
        do {
            try await LogTools.fill(
                directory: DataDirectory(data.url).log, events: events, batch: batch, hold: hold,
                segmentSize: segmentSize, checkpointInterval: checkpointInterval
            ) { position in
                FileHandle.standardOutput.write(Data("\(position)\n".utf8))
            }
        } catch let error as LogToolError {
            throw CLIFailure.badInput(error.message)
        }
    }
}

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
        try data.requireFileLog("log-open")
        try LogTools.openAndClose(directory: DataDirectory(data.url).log) { line in
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
    }
}
