import ArgumentParser
import AuditService
import Foundation

/// `itemaudit replay`: rebuild projections from the log, or build them as of a point into a file.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Rebuild the projections from the log, or as of a time or position into a separate database.",
        discussion: """
            Without --until, drops and refolds the named projection (all when none is named) in \
            <data>/projections.sqlite. With --until TIME|POSITION --out FILE, builds every projection \
            as of that point into FILE: a new file, or one an earlier replay --out made (anything else, \
            a directory and any path inside a data directory are refused, untouched); query it with history --as-of or by \
            opening it with sqlite3. Prints events/s at the end; a progress bar on stderr when it \
            is a terminal.

            Example:
              itemaudit replay --until 2026-02-01T00:00:00Z --out /tmp/feb.sqlite
            """
    )

    @OptionGroup var data: DataDirectoryOption
    @OptionGroup var output: FormatOption

    @Option(
        help:
            "Only this projection (and what it depends on): directory, batches, quality, inspectors, coverage, products."
    )
    var projection: String?

    @Option(
        help: ArgumentHelp("Replay up to this ISO 8601 time (recorded-at) or log position.", valueName: "time|position")
    )
    var until: LogPoint?

    @Option(help: ArgumentHelp("The database to build as of --until.", valueName: "file"))
    var out: String?

    @Flag(help: "No progress bar.") var quiet = false

    /// What `--format json` prints.
    struct Summary: Encodable {
        var events: Int
        var toPosition: UInt64
        var seconds: Double
        var eventsPerSecond: Int
        var database: String
    }

    func validate() throws {
        if (until == nil) != (out == nil) { throw ValidationError("--until and --out go together") }
    }

    func run() throws {
        // Checked before anything is opened: only a new file or an earlier replay's output is written.
        if let out {
            do throws(AuditServiceError) { _ = try ReplayOutput.check(path: out, dataDirectory: data.url) } catch {
                throw CLIFailure.badInput("--out \(error.message)")
            }
        }
        let queries = try ProjectionAccess.queries(data)
        // Checked before anything is replaced: a point past the end is refused with the file untouched.
        let end = try until.map { try queries.position(of: $0, option: "--until") } ?? queries.lastPosition
        let bar = ProgressBar.onTerminal(quiet: quiet)
        do {
            let report = try queries.replay(
                only: projection.map { Set([$0]) }, upTo: end, into: out.map { URL(fileURLWithPath: $0) }
            ) { position, end in
                bar.update(position, of: end)
            }
            bar.finish()
            let rate = report.seconds > 0 ? Double(report.events) / report.seconds : 0
            let summary = Summary(
                events: report.events, toPosition: report.toPosition,
                seconds: (report.seconds * 100).rounded() / 100, eventsPerSecond: Int(rate.rounded()),
                database: out ?? report.database.path)
            output.emit(summary) {
                var table = TextTable(
                    columns: ["events", "toPosition", "seconds", "eventsPerSecond", "database"],
                    rightAligned: [0, 1, 2, 3])
                table.append([
                    String(summary.events), String(summary.toPosition), String(format: "%.2f", report.seconds),
                    String(summary.eventsPerSecond), summary.database,
                ])
                return table
            }
        } catch {
            bar.finish()
            throw error
        }
    }
}
