import ArgumentParser
import AuditService
import Foundation

/// `itemaudit coverage`: how much of the catalogue was inspected, per group and period.
struct CoverageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coverage",
        abstract:
            "Coverage per product type, mode, inspector, location or period: catalogue, inspected, %, never inspected, overdue.",
        discussion: """
            Products count as inspected when an inspection of them finished in the period. Overdue: \
            received products past their inspect-before date by the end of the period (or now) \
            and not inspected since they were received.

            Example:
              itemaudit coverage --from 2026-01-01 --to 2026-04-01 --by type --format table
              itemaudit coverage --by week
            """
    )

    @OptionGroup var data: DataDirectoryOption
    @OptionGroup var output: FormatOption
    @OptionGroup var asOf: AsOfOptions
    @OptionGroup var period: PeriodOptions

    @Option(
        help: "Group by type, mode, inspector or location; or by day, week or month (with the change in inspections).")
    var by: CoverageGrouping = .type

    func run() throws {
        let queries = try asOf.queries(data)
        let rows = try queries.coverage(from: period.fromTime, to: period.toTime, by: by)
        output.emit(rows) { Self.table(rows, by: by) }
    }

    /// The coverage rows as a table (also printed by `demo`).
    static func table(_ rows: [CoverageRow], by: CoverageGrouping) -> TextTable {
        // Headers are the JSON keys; the group is printed by its label.
        var table = TextTable(
            columns: [
                "groupLabel", "catalogue", "inspected", "percent", "inspections", "neverInspected", "overdue",
            ],
            rightAligned: [1, 2, 3, 4, 5, 6, 7])
        if [.day, .week, .month].contains(by) { table.columns.append("change") }
        for row in rows {
            table.append(
                [
                    row.groupLabel, String(row.catalogue), String(row.inspected), String(format: "%.1f", row.percent),
                    String(row.inspections), row.neverInspected.map(String.init) ?? "-",
                    row.overdue.map(String.init) ?? "-",
                ] + (table.columns.count > 7 ? [row.change.map(InspectorsCommand.signed) ?? "-"] : []))
        }
        return table
    }
}

extension CoverageGrouping: ExpressibleByArgument {}
