import ArgumentParser
import AuditService
import Benchmarks
import Foundation

/// `itemaudit bench proof`: inclusion and consistency proof times on a large log against reading one event.
struct BenchProofCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "proof",
        abstract:
            "Benchmark inclusion and consistency proofs (p50, p99) on a large file log against reading one event.",
        discussion: """
            Uses the file log in --data, filled with --events generated events when it holds none \
            (kept, so the next run measures the same log). Signs a checkpoint there (making the log \
            key and the tree's tiles on first use), then times --samples proofs of each kind at \
            seeded positions against reading one event the same way (opening the log read-only each \
            time, as the proof commands do).

            Example:
              itemaudit bench proof --data /tmp/proof-bench --events 10000000 --format json
            """
    )

    @OptionGroup var data: DataDirectoryOption
    @Option(help: "Events to generate when the log is empty.") var events: Int = 10_000_000
    @Option(help: "Proofs of each kind to time.") var samples: Int = 200
    @Option(help: "The seed of the positions.") var seed: UInt64 = 44
    @OptionGroup var output: FormatOption

    func validate() throws {
        guard events >= 1, samples >= 1 else { throw ValidationError("--events and --samples must be at least 1") }
    }

    func run() async throws {
        try data.requireFileLog("bench proof")
        let report = try await ProofBenchmark.run(
            directory: DataDirectory(data.url), events: events, samples: samples, seed: seed
        ) { FileHandle.standardError.write(Data("bench: \($0)\n".utf8)) }
        report.print(output.format)
    }
}
