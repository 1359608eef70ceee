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
            The data directory must not hold a log yet; --replace empties one an earlier generate made \
            (an interrupted one, say: Ctrl-C says how far it got and leaves the partial log).

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
    @Flag(help: "Replace the log an earlier generate wrote in --data (an interrupted one, say).") var replace = false

    func run() async throws {
        try data.requireFileLog("generate")
        let configuration = size.configuration
        if DataDirectory(data.url).holdsEvents {
            guard replace else {
                throw CLIFailure.badInput(
                    "\(data.url.path) already holds a log (pass a new --data directory, or --replace to start again in one generate made)"
                )
            }
            try GenerateInterruption.replace(data.url)
        }
        let interruption = GenerateInterruption(directory: data.url)
        defer { interruption.finish() }
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
            // The service made and checked the directory; the marker lets --replace empty it later.
            do { try GenerateInterruption.mark(data.url) } catch {
                try? await service.close()
                throw CLIFailure.badInput(
                    "cannot write in \(data.url.path): \(error) (pass a writable --data directory)")
            }
            let bar = ProgressBar.onTerminal(quiet: quiet)
            report = try await generator.run(service: service, clock: clock) {
                interruption.progress($0, of: $1)
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
        // The field names are the JSON keys (camelCase, as every command prints them).
        var table = TextTable(columns: ["field", "value"], rightAligned: [1])
        let rows: [(String, Int)] = [
            ("workdays", report.workdays), ("commands", report.commands), ("accepted", report.accepted),
            ("refused", report.refused), ("events", Int(report.events)), ("batches", report.batches),
            ("submitted", report.submitted), ("cancelled", report.cancelled), ("expired", report.expired),
            ("inspected", report.inspected), ("failed", report.failed), ("photosAttached", report.photosAttached),
            ("photosUploaded", report.photosUploaded),
        ]
        for row in rows { table.append([row.0, String(row.1)]) }
        if output.format == .json {
            print(JSONOutput.text(Summary(counts: rows, refusalSamples: report.refusalSamples)), terminator: "")
        } else {
            print(table.render(output.format), terminator: "")
            for sample in report.refusalSamples { FileHandle.standardError.write(Data("refused: \(sample)\n".utf8)) }
        }
    }

    /// What `--format json` prints: the counts, and a few refusals as examples.
    struct Summary: Encodable {
        var counts: [(String, Int)]
        var refusalSamples: [String]

        private struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for (key, value) in counts { try container.encode(value, forKey: Key(stringValue: key)) }
            try container.encode(refusalSamples, forKey: Key(stringValue: "refusalSamples"))
        }
    }
}
