import ArgumentParser
import Benchmarks
import Foundation

/// `itemaudit bench events`: the inspection event codec against JSONDecoder.
struct BenchEventsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Benchmark the inspection event payload codec (binary decode, decode + fold) against JSONDecoder.",
        discussion: """
            Builds a realistic event mix in memory (per task: start, ~70 attribute verdicts, a photo, \
            a finish), then measures binary encode, binary decode, and decode + fold into the \
            domain state. The baseline is JSONDecoder on the same events' JSON form. Run it on a \
            release build.

            Example:
              itemaudit bench events --events 2000000 --format json
            """
    )

    @Option(help: "Events to encode and decode.")
    var events: Int = 2_000_000

    @OptionGroup var output: FormatOption

    func validate() throws {
        guard events >= 1_000 else { throw ValidationError("--events must be at least 1000") }
    }

    func run() throws {
        let results = try EventCodecBenchmark(events: events).run { step in
            FileHandle.standardError.write(Data("bench: \(step)\n".utf8))
        }
        BenchmarkReport(results: results).print(output.format)
    }
}
