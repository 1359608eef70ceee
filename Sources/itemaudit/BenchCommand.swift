import ArgumentParser
import Benchmarks
import Foundation

/// `itemaudit bench …`: benchmarks that print a ratio against a baseline measured in the same run.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure speed and memory against a baseline run on this machine, in the same run.",
        discussion: """
            Each benchmark prints its figures with the baseline and the ratio (ours / baseline).

            Example:
              itemaudit bench log --format json
            """,
        subcommands: [
            BenchLogCommand.self,
            BenchEventsCommand.self,
            BenchGS1Command.self,
            BenchRulesCommand.self,
            BenchReplayCommand.self,
            BenchServeCommand.self,
            BenchPagesCommand.self,
            BenchProofCommand.self,
        ]
    )
}

extension BenchmarkReport {
    /// Prints the report as a table or as `{"results":[…]}`.
    func print(_ format: OutputFormat) {
        if format == .json {
            Swift.print(JSONOutput.text(self, fallback: "{}"), terminator: "")
            return
        }
        var table = TextTable(columns: ["name", "value", "unit", "baseline", "ratio"], rightAligned: [1, 3, 4])
        for result in results {
            table.append([
                result.name, Self.figure(result.value), result.unit,
                result.baseline.map(Self.figure) ?? "-", result.ratio.map { String(format: "%.2f", $0) } ?? "-",
            ])
        }
        Swift.print(table.render(format), terminator: "")
    }

    private static func figure(_ value: Double) -> String {
        value >= 100 ? String(Int(value.rounded())) : String(format: "%.2f", value)
    }
}
