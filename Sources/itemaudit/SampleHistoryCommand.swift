import ArgumentParser
import AuditService
import Benchmarks
import Foundation

/// Hidden: writes a seeded sample inspection history to `<data>/log` (for tests and benchmarks).
struct SampleHistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sample-history",
        abstract: "Append a seeded, realistic sample inspection history to <data>/log.",
        discussion: """
            For tests and measurements: locations, inspectors, a catalogue with datasheets, then \
            day after day batches collected, inspected, photographed and submitted.

            Example:
              itemaudit sample-history --data /tmp/sample --events 100000 --seed 7
            """,
        shouldDisplay: false
    )

    @OptionGroup var data: DataDirectoryOption

    @Option(help: "About how many events to append (whole commands).")
    var events: Int = 10_000

    @Option(help: "The generator's seed.")
    var seed: UInt64 = 1

    @Option(help: "Products in the catalogue.")
    var products: Int = 2_000

    func run() async throws {
        try data.requireFileLog("sample-history")
        do {
            let last = try await LogTools.writeSampleHistory(
                directory: DataDirectory(data.url).log, events: events, seed: seed, products: products)
            print(last)
        } catch let error as LogToolError {
            throw CLIFailure.badInput(error.message)
        }
    }
}
