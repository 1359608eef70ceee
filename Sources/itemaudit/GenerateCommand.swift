import ArgumentParser
import AuditService
import Foundation
import Logging
import SampleData

/// `itemaudit generate`: a realistic, seeded inspection history through the real command path.
struct GenerateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate a realistic inspection history (seeded) through the real command path.",
        discussion: """
            Registers locations, inspectors and products with GS1-valid GTINs (mostly Finnish 64x \
            prefixes) and datasheets (about 70 attributes per base unit, 15 per case), then simulates \
            each weekday: receptions at the inspection centre, batch allocations, collection by scan \
            (with skips), verdicts, photos (a few left pending), submissions, cancellations and \
            expiries. Time is simulated, so the same seed writes the same log, byte for byte. \
            The data directory must not hold a log yet.

            Example:
              itemaudit generate --data ./demo-data --seed 7 --days 30
            """
    )

    /// Warnings and errors only: the command's own output is the report.
    static var logger: Logger {
        var logger = Logger(label: "itemaudit.generate")
        logger.logLevel = .warning
        return logger
    }

    @OptionGroup var data: DataDirectoryOption
    @OptionGroup var output: FormatOption
    @OptionGroup var size: HistorySizeOptions
    @Flag(help: "Print only the report, not the time taken.") var quiet = false

    func run() async throws {
        let configuration = size.configuration
        if DataDirectory(data.url).holdsEvents {
            throw CLIFailure.badInput("\(data.url.path) already holds a log (pass a new --data directory)")
        }
        let generator = WorkloadGenerator(configuration: configuration)
        let clock = generator.makeClock()
        let started = ContinuousClock.now
        let service = try await ServiceAccess.opening(data.url) {
            try await AuditService.open(dataDirectory: data.url, clock: clock, logger: Self.logger)
        }
        let report: WorkloadGenerator.Report
        do {
            guard service.lastPosition == 0 else {
                try? await service.close()
                throw CLIFailure.badInput("\(data.url.path) already holds a log (pass a new --data directory)")
            }
            let bar = ProgressBar.onTerminal(quiet: quiet)
            report = try await generator.run(service: service, clock: clock) {
                bar.update(UInt64($0), of: UInt64($1))
            }
            bar.finish()
            try await service.close()
        } catch let error as AuditServiceError {
            try? await service.close()
            throw CLIFailure.badInput(
                "generating stopped: \(error.message) (the data directory holds what was written)")
        }
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        if !quiet {
            let rate = Int(Double(report.events) / max(seconds, 0.001))
            FileHandle.standardError.write(
                Data(
                    "generated \(report.events) events in \(String(format: "%.2f", seconds)) s (\(rate) events/s)\n"
                        .utf8))
        }
        var table = TextTable(columns: ["field", "value"], rightAligned: [1])
        let rows: [(String, String)] = [
            ("workdays", String(report.workdays)), ("commands", String(report.commands)),
            ("accepted", String(report.accepted)), ("refused", String(report.refused)),
            ("events", String(report.events)),
            ("batches", String(report.batches)), ("submitted", String(report.submitted)),
            ("cancelled", String(report.cancelled)), ("expired", String(report.expired)),
            ("inspected", String(report.inspected)), ("failed", String(report.failed)),
            ("photos attached", String(report.photosAttached)), ("photos uploaded", String(report.photosUploaded)),
        ]
        for row in rows { table.append([row.0, row.1]) }
        if output.format == .json {
            var object: [String: Any] = [:]
            for row in rows { object[row.0.replacingOccurrences(of: " ", with: "_")] = Double(row.1) ?? row.1 }
            object["refusal_samples"] = report.refusalSamples
            let json =
                (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted])) ?? Data()
            print(String(decoding: json, as: UTF8.self))
        } else {
            print(table.render(output.format), terminator: "")
            for sample in report.refusalSamples { FileHandle.standardError.write(Data("refused: \(sample)\n".utf8)) }
        }
    }
}
