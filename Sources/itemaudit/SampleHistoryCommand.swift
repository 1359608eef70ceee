import ArgumentParser
import AuditLog
import Benchmarks
import Foundation
import Logging

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
        let logger = Logger(label: "itemaudit.sample") { _ in SwiftLogNoOpLogHandler() }
        let clock = ManualClock(Timestamp(microsecondsSinceEpoch: 1_767_225_600_000_000))
        let log: EventLog
        do {
            log = try EventLog.open(directory: data.url.appendingPathComponent("log"), clock: clock, logger: logger)
        } catch {
            throw CLIFailure.badInput("cannot open the log: \(error)")
        }
        var history = SampleHistory(seed: seed, products: products)
        try await history.write(events: events, to: log, clock: clock)
        try log.close()
        print(log.lastPosition)
    }
}
