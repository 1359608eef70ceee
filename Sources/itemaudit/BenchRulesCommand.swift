import ArgumentParser
import Benchmarks
import Foundation

/// `itemaudit bench rules`: the rule engine's throughput and the streaming import's memory.
struct BenchRulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract:
            "Check generated ~70-attribute datasheets with every rule set on one core; import and check a JSON Lines file.",
        discussion: """
            check: datasheets/s, baseline Foundation JSONSerialization parsing the same datasheets.
            import-check: a JSON Lines file imported (streaming) and checked, datasheets/s, baseline \
            JSONSerialization parsing its lines; memory: peak resident MB (VmHWM) during it.
            cin-import-mb: the same datasheets written as one GDSN Catalogue Item Notification file \
            and imported (streaming), MB/s, baseline xmllint --stream --noout reading the same file; \
            cin-import: datasheets/s, baseline the same datasheets as JSON Lines; cin-memory: peak \
            resident MB during the CIN import. Needs xmllint (libxml2-utils).

            Example:
              itemaudit bench rules --format json
              itemaudit bench rules --import-gb 1
              itemaudit bench rules --cin-megabytes 1024
            """)

    @OptionGroup var output: FormatOption

    @Option(help: "Size of the JSON Lines file to import and check, in GB.")
    var importGb: Double = 0.0625

    @Option(help: "Distinct generated datasheets (cycled).")
    var datasheets: Int = 5000

    @Option(help: "Size of the GDSN CIN file to import, in MB (MiB).")
    var cinMegabytes: Double = 64

    func run() throws {
        guard importGb > 0, importGb <= 64, datasheets > 0 else {
            throw CLIFailure.badInput("--import-gb must be in (0, 64] and --datasheets positive")
        }
        guard cinMegabytes > 0, cinMegabytes <= 65536 else {
            throw CLIFailure.badInput("--cin-megabytes must be in (0, 65536]")
        }
        let benchmark = RulesBenchmark(
            datasheets: datasheets, importBytes: Int(importGb * Double(1 << 30)),
            cinBytes: Int(cinMegabytes * Double(1 << 20)))
        do {
            BenchmarkReport(results: try benchmark.run()).print(output.format)
        } catch {
            throw CLIFailure.badInput("\(error)")
        }
    }
}
