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
            The data directory must not hold a log yet. Ctrl-C stops generate, says how far it got and \
            leaves the partial log (nothing written is lost); run the same generate again with --resume \
            to continue it (the result is the history an uninterrupted run writes; --days may be more, \
            to extend a history), or with --replace to empty the directory and start again. Both only \
            touch a directory an earlier generate made.

            Example:
              itemaudit generate --data ./demo-data --seed 7 --days 30
              itemaudit generate --data ./demo-data --seed 7 --days 30 --resume   # after Ctrl-C
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
    @Flag(help: "Continue the log an interrupted generate wrote in --data (same options; --days may be more).")
    var resume = false

    func validate() throws {
        if replace && resume { throw ValidationError("--replace starts again, --resume continues: pass one of them") }
    }

    func run() async throws {
        try data.requireFileLog("generate")
        let configuration = size.configuration
        let resuming = resume && DataDirectory(data.url).holdsEvents
        if DataDirectory(data.url).holdsEvents {
            if resume {
                try GenerateInterruption.checkResumable(data.url, options: size.arguments)
            } else {
                guard replace else {
                    throw CLIFailure.badInput(
                        "\(data.url.path) already holds a log (pass a new --data directory; in one generate made, --resume continues it, --replace starts again)"
                    )
                }
                try GenerateInterruption.replace(data.url)
            }
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
            guard service.lastPosition == 0 || resuming else {
                try? await service.close()
                throw CLIFailure.badInput("\(data.url.path) already holds a log (pass a new --data directory)")
            }
            // The service made and checked the directory; the marker lets --resume and --replace
            // find it later, and names the options that wrote it.
            do { try GenerateInterruption.mark(data.url, options: size.arguments) } catch {
                try? await service.close()
                throw CLIFailure.badInput(
                    "cannot write in \(data.url.path): \(error) (pass a writable --data directory)")
            }
            let bar = ProgressBar.onTerminal(quiet: quiet)
            report = try await generator.run(service: service, clock: clock, resume: resuming) {
                interruption.progress($0, of: $1)
                bar.update(UInt64($0), of: UInt64($1))
            }
            bar.finish()
            try await service.close()
        } catch let error as AuditServiceError {
            try? await service.close()
            throw CLIFailure.badInput(
                "generating stopped: \(error.message) (the data directory holds what was written)")
        } catch let error as GeneratorResumeError {
            try? await service.close()
            throw CLIFailure.badInput(
                "cannot resume \(data.url.path): \(error.description) (nothing was added; run generate with --replace to start again)"
            )
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
        let rows: [(String, Int)] = [
            ("workdays", report.workdays), ("commands", report.commands), ("accepted", report.accepted),
            ("refused", report.refused), ("events", Int(report.events)), ("batches", report.batches),
            ("submitted", report.submitted), ("cancelled", report.cancelled), ("expired", report.expired),
            ("inspected", report.inspected), ("failed", report.failed), ("photosAttached", report.photosAttached),
            ("photosUploaded", report.photosUploaded),
        ]
        switch output.format {
        case .json:
            print(JSONOutput.text(Summary(counts: rows, refusalSamples: report.refusalSamples)), terminator: "")
        case .csv:
            let fields =
                rows.map { ($0.0, String($0.1)) } + [("refusalSamples", report.refusalSamples.joined(separator: " | "))]
            print(output.renderRecord(fields), terminator: "")
        case .table:
            print(output.renderRecord(rows.map { ($0.0, String($0.1)) }, rightAligned: true), terminator: "")
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
