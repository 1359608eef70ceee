import ArgumentParser
import Benchmarks

/// `itemaudit bench gs1`: GS1 parsing and validation speed against a regex/Foundation baseline.
struct BenchGS1Command: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gs1",
        abstract: "Parse and fully validate a realistic mix of scanned codes (inputs/s, one core).",
        discussion: """
            The mix: EAN-13 alone, (01)(17)(10) GS1-128 scans, (01)(3103)(15)(21) bracketed and Digital \
            Link URIs, 1,000 distinct seeded inputs. The baseline, measured in the same run on the \
            same inputs, is a straightforward NSRegularExpression/URLComponents parse with per-AI \
            format regexes and the GTIN check digit (no linters beyond that, no req/ex rules). \
            Build with -c release for meaningful figures.

            Example:
              itemaudit bench gs1 --format json
            """
    )

    @Option(help: "Seconds to run each side.")
    var seconds: Double = 1.0

    @OptionGroup var output: FormatOption

    func run() throws {
        BenchmarkReport(results: GS1Benchmark.run(seconds: seconds)).print(output.format)
    }
}
