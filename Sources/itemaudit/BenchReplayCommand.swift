import ArgumentParser
import Benchmarks
import Foundation
import Logging

/// `itemaudit bench replay`: full rebuild of every projection against the raw log replay.
struct BenchReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Benchmark a full rebuild of every projection against the raw log replay, and peak memory.",
        discussion: """
            Generates a seeded history of --events events in a scratch directory (removed afterwards),
            replays it raw (the baseline), then rebuilds every projection from it. `rebuild` is
            events/s with the raw replay rate as baseline; `memory` is the peak resident size during
            the rebuild (VmHWM).

            Example:
              itemaudit bench replay --events 1000000 --format json
            """
    )

    @Option(help: "Events to generate and replay.")
    var events: Int = 1_000_000

    @OptionGroup var output: FormatOption

    func validate() throws {
        guard events >= 1_000 else { throw ValidationError("--events must be at least 1000") }
    }

    func run() async throws {
        let scratch = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            .appendingPathComponent(".itemaudit-bench-replay-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let logger = Logger(label: "itemaudit.bench") { _ in SwiftLogNoOpLogHandler() }
        let report = try await ReplayBenchmark(events: events, directory: scratch, logger: logger).run { step in
            FileHandle.standardError.write(Data("bench: \(step)\n".utf8))
        }
        report.print(output.format)
    }
}
