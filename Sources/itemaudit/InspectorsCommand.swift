import ArgumentParser
import AuditService
import Foundation

/// `itemaudit inspectors`: per-inspector analytics over a period.
struct InspectorsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspectors",
        abstract:
            "Inspector analytics: allocated, collected, skipped by reason, inspected, passed/failed, time per task.",
        discussion: """
            Days are UTC days of the events' occurred-at (device) times. Time per task runs from \
            InspectionStarted to InspectionFinished, pauses excluded.

            Example:
              itemaudit inspectors --from 2026-03-01 --to 2026-04-01 --format csv
            """
    )

    @OptionGroup var data: DataDirectoryOption
    @OptionGroup var output: FormatOption
    @OptionGroup var period: PeriodOptions

    func run() throws {
        let rows = try ProjectionAccess.queries(data.url).inspectors(from: period.fromMicros, to: period.toMicros)
        output.format.emit(rows) { Self.table(rows) }
    }

    /// Inspector analytics as a table (also printed by `demo`).
    static func table(_ rows: [InspectorSummary]) -> TextTable {
        var table = TextTable(
            columns: [
                "inspector", "days", "allocated", "collected", "skip_unable", "skip_stock", "skip_gone",
                "inspected",
                "passed", "failed", "insp_skipped", "verdicts", "photos", "sec_per_task",
            ], rightAligned: Set(1...13))
        for row in rows {
            let counts: [Int] = [
                row.days, row.allocated, row.collected, row.skippedUnableToCollect, row.skippedOutOfStock,
                row.skippedNoLongerAvailable, row.inspected, row.passed, row.failed, row.inspectionSkipped,
                row.attributesVerified, row.photos,
            ]
            let seconds = row.secondsPerTask.map { String(format: "%.1f", $0) } ?? "-"
            table.append([row.inspectorID] + counts.map { String($0) } + [seconds])
        }
        return table
    }
}
