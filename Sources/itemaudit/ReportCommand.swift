import ArgumentParser
import AuditService
import Foundation
import WebPages

/// `itemaudit report --out DIR`: the web pages as static files, for a manager to zip and send.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write the web pages (dashboard, coverage, inspectors, batches, …) as static HTML files with CSVs.",
        discussion: """
            Writes index.html (the dashboard), the overview pages, the batch and product pages they \
            link to, and a CSV beside every table, all with relative links and every chart inline: \
            the folder opens from disk, offline. --out must be a new or empty directory, or one an \
            earlier report wrote. The log is verified first and the result shown on the dashboard.

            Example:
              itemaudit report --out report/
              itemaudit report --from 2026-01-01 --to 2026-02-01 --out january/ --datasheets supplier.jsonl
            """)

    @OptionGroup var data: DataDirectoryOption
    @OptionGroup var period: PeriodOptions

    @Option(help: ArgumentHelp("The directory to write the pages into.", valueName: "dir"))
    var out: String

    @Option(help: ArgumentHelp("A datasheet file whose rule findings fill the rule-check page.", valueName: "file"))
    var datasheets: String?

    @Flag(help: "Do not print the line saying what was written.") var quiet = false

    func run() async throws {
        let queries = try ProjectionAccess.queries(data.url)
        if let datasheets {
            try ServiceAccess.requireTextFile(
                datasheets, kind: "a datasheet file: .jsonld/.json, .jsonl/.ndjson or .csv")
        }
        do {
            var checks: RuleCheckInput?
            if let datasheets { checks = try await RuleCheckInput.check(file: datasheets) }
            let report = StaticReport(
                queries: queries, period: ReportPeriod(from: period.fromTime, to: period.toTime), datasheets: checks
            )
            let summary = try await report.write(to: URL(fileURLWithPath: out))
            if !quiet {
                FileHandle.standardError.write(
                    Data(
                        ("wrote \(summary.pages) pages, \(summary.csvFiles) CSV files and \(summary.photos) photos "
                            + "(\(summary.bytes / 1024) kB) to \(out); "
                            + "open \(URL(fileURLWithPath: out).appendingPathComponent("index.html").path)\n").utf8))
            }
        } catch let error as ReportError {
            throw CLIFailure.badInput(error.message)
        }
    }
}
