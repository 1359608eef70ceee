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
            Generates a seeded history of --events events in a scratch directory (removed afterwards), \
            replays it raw (the baseline), then rebuilds every projection from it. `rebuild` is \
            events/s with the raw replay rate as baseline; `memory` is the peak resident size during \
            the rebuild (VmHWM). `database-ceiling` is the rate the rebuild would reach if folding and \
            decoding took no time (events over the database thread's CPU seconds), and \
            `database-rows` compares that thread's rows per second with SQLite alone.

            Example:
              itemaudit bench replay --events 1000000 --format json
            """
    )

    @Option(help: "Events to generate and replay.")
    var events: Int = 1_000_000

    @OptionGroup var output: FormatOption

    @Option(
        help: ArgumentHelp(
            "Measure on the log in this directory instead of generating one (used for the child process).",
            visibility: .hidden))
    var existing: String?

    @Option(
        help: ArgumentHelp(
            "Generate the log into this directory and keep it (to measure it again with --existing).",
            visibility: .hidden))
    var keep: String?

    func validate() throws {
        guard events >= 1_000 else { throw ValidationError("--events must be at least 1000") }
    }

    func run() async throws {
        let logger = Logger(label: "itemaudit.bench") { _ in SwiftLogNoOpLogHandler() }
        let say: @Sendable (String) -> Void = { FileHandle.standardError.write(Data("bench: \($0)\n".utf8)) }
        if let existing {
            let benchmark = ReplayBenchmark(events: events, directory: URL(fileURLWithPath: existing), logger: logger)
            try benchmark.measure(progress: say).print(output.format)
            return
        }
        if let keep {
            let directory = URL(fileURLWithPath: keep)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try await ReplayBenchmark(events: events, directory: directory, logger: logger).generate(progress: say)
            return
        }
        let scratch = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            .appendingPathComponent(".itemaudit-bench-replay-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        try await ReplayBenchmark(events: events, directory: scratch, logger: logger).generate(progress: say)
        // Measured in a fresh process: its peak memory (VmHWM) is the replay's and rebuild's alone.
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        child.arguments = ["bench", "replay", "--existing", scratch.path, "--format", "json"]
        let pipe = Pipe()
        child.standardOutput = pipe
        try child.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        guard child.terminationStatus == 0, let report = try? JSONDecoder().decode(BenchmarkReport.self, from: data)
        else { throw CLIFailure.badInput("the measuring process failed (exit \(child.terminationStatus))") }
        report.print(output.format)
    }
}
