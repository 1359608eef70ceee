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
            decodes everything; bytes-per-event counts the files on disk. batch-append-with-tree \
            appends the same batches to a second log while its Merkle tree is kept as serve keeps \
            it (extended and signed every second, and once after the last append, inside the time), \
            against batch-append; bytes-per-event-with-tree adds that log's tree/, checkpoints/ and \
            keys/ to its segments, against the log alone.

            With --store postgres://…, measures the PostgreSQL store instead, with the file log \
            measured in the same run as the baseline (each in scratch space: databases created on \
            the URL's cluster and dropped afterwards), adds subscription-lag-p50/p99/max-ms (an \
            append's start on one store to its position arriving through LISTEN/NOTIFY at another), \
            batch-append-with-tree for both stores (each against itself without the tree), \
            batch-append-vs-database-floor (its baseline: the same events copied by PostgreSQL itself, \
            no client, into a table with only the per-event keys, a durable transaction per 1,000 on \
            one connection per core), and the peer: Python's eventsourcing library on the same cluster with the same events \
            (tools/bench/eventsourcing-peer.py; its figures are the baseline of the *-vs-eventsourcing rows).

            Example:
              itemaudit bench log --events 1000000 --format table
              itemaudit bench log --events 200000 --store "$(tools/pg-cluster start)" --format table
            """
    )

    @Option(help: "Events to append and replay.")
    var events: Int = 1_000_000

    @Option(help: ArgumentHelp("Measure the PostgreSQL store on this cluster (a libpq URL).", valueName: "url"))
    var store: String?

    @Option(help: ArgumentHelp("The peer benchmark script (with --store).", valueName: "file"))
    var peerScript: String = "tools/bench/eventsourcing-peer.py"

    @Flag(help: "With --store, skip the Python eventsourcing peer.")
    var noPeer = false

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
        if let store {
            let benchmark: StoreLogBenchmark
            do {
                benchmark = try StoreLogBenchmark(events: events, urlText: store, directory: scratch, logger: logger)
            } catch {
                throw CLIFailure.badInput("\(error) (check --store)")
            }
            let report = try await benchmark.run(peerScript: noPeer ? nil : URL(fileURLWithPath: peerScript)) { step in
                FileHandle.standardError.write(Data("bench: \(step)\n".utf8))
            }
            report.print(output.format)
            return
        }
        let benchmark = LogBenchmark(events: events, directory: scratch, logger: logger)
        let report = try await benchmark.run { step in
            FileHandle.standardError.write(Data("bench: \(step)\n".utf8))
        }
        report.print(output.format)
    }
}
