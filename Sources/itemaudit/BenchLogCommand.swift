import ArgumentParser
import Benchmarks
import Foundation
import Logging

/// `itemaudit bench log`: the event log against a plain SQLite events table.
struct BenchLogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Benchmark the event log against SQLite: append, concurrent append, replay, bytes per event.",
        discussion: """
            Writes to a scratch directory (removed afterwards) on the same disk as the current \
            directory. batch-append is durable per 1,000 events (4 submitters, each awaiting each \
            batch before its next; SQLite appends its batches one after another); concurrent-append runs 64 \
            appenders each awaiting its own durable append; replay reads, decompresses, checks and \
            decodes everything; bytes-per-event counts the files on disk.

            Example:
              itemaudit bench log --events 1000000 --format table
            """
    )

    @Option(help: "Events to append and replay.")
    var events: Int = 1_000_000

    @OptionGroup var output: FormatOption

    func validate() throws {
        guard events >= 1_000 else { throw ValidationError("--events must be at least 1000") }
    }

    func run() async throws {
        let scratch = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            .appendingPathComponent(".itemaudit-bench-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let logger = Logger(label: "itemaudit.bench") { _ in SwiftLogNoOpLogHandler() }
        let benchmark = LogBenchmark(events: events, directory: scratch, logger: logger)
        let report = try await benchmark.run { step in
            FileHandle.standardError.write(Data("bench: \(step)\n".utf8))
        }
        report.print(output.format)
    }
}
