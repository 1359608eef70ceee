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
            InspectionStarted to InspectionFinished, pauses excluded. With --by day, week or month, \
            one row per inspector and period, with the change in inspections from their period before.

            Example:
              itemaudit inspectors --from 2026-01-01 --to 2026-02-01 --by week --format csv
            """
    )

    @OptionGroup var data: DataDirectoryOption
    @OptionGroup var output: FormatOption
    @OptionGroup var asOf: AsOfOptions
    @OptionGroup var period: PeriodOptions

    @Option(help: "Break down by day, week (from Monday) or month.")
    var by: PeriodUnit?

    func run() throws {
        let rows = try asOf.queries(data).inspectors(
            from: period.fromTime, to: period.toTime, per: by)
        output.emit(rows) { Self.table(rows, per: by) }
    }

    /// Inspector analytics as a table (also printed by `demo`).
    static func table(_ rows: [InspectorSummary], per: PeriodUnit? = nil) -> TextTable {
        let periodColumns = per == nil ? [] : ["period"]
        var table = TextTable(
            columns: ["inspectorID"] + periodColumns + [
                "days", "allocated", "collected", "skippedUnableToCollect", "skippedOutOfStock",
                "skippedNoLongerAvailable", "inspected", "passed", "failed", "inspectionSkipped",
                "attributesVerified", "photos", "secondsPerTask",
            ] + (per == nil ? [] : ["change"]),
            rightAligned: Set((1 + periodColumns.count)...(13 + 2 * periodColumns.count)))
        for row in rows {
            let counts: [Int] = [
                row.days, row.allocated, row.collected, row.skippedUnableToCollect, row.skippedOutOfStock,
                row.skippedNoLongerAvailable, row.inspected, row.passed, row.failed, row.inspectionSkipped,
                row.attributesVerified, row.photos,
            ]
            let seconds = row.secondsPerTask.map { String(format: "%.1f", $0) } ?? "-"
            let change = per == nil ? [] : [row.change.map(Self.signed) ?? "-"]
            table.append(
                [row.inspectorID] + (per == nil ? [] : [row.period ?? "-"]) + counts.map { String($0) } + [seconds]
                    + change)
        }
        return table
    }

    /// `+12`, `-3`, `0`: a change with its sign.
    static func signed(_ change: Int) -> String { change > 0 ? "+\(change)" : String(change) }
}

extension PeriodUnit: ExpressibleByArgument {}
