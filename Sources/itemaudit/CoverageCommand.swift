import ArgumentParser
import AuditLog
import Foundation
import Projections

/// `itemaudit coverage`: how much of the catalogue was inspected, per group and period.
struct CoverageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coverage",
        abstract:
            "Coverage per product type, mode, inspector or location: catalogue, inspected, %, never inspected, overdue.",
        discussion: """
            Products count as inspected when an inspection of them finished in the period. Overdue:
            received products past their inspect-before date by the end of the period (or now)
            and not inspected since they were received.

            Example:
              itemaudit coverage --from 2026-01-01 --to 2026-04-01 --by type --format table
            """
    )

    @OptionGroup var data: DataDirectoryOption
    @OptionGroup var output: FormatOption
    @OptionGroup var period: PeriodOptions

    @Option(help: "Group by type, mode, inspector or location.")
    var by: CoverageGrouping = .type

    func run() throws {
        let (_, store) = try ProjectionAccess.caughtUp(data.url)
        let to = period.toMicros ?? Timestamp(Date()).microsecondsSinceEpoch
        let rows = try store.coverage(from: period.fromMicros, to: to, by: by)
        output.format.emit(rows) {
            var table = TextTable(
                columns: [
                    by.rawValue, "catalogue", "inspected", "percent", "inspections", "never_inspected", "overdue",
                ],
                rightAligned: [1, 2, 3, 4, 5, 6])
            for row in rows {
                table.append([
                    row.group, String(row.catalogue), String(row.inspected), String(format: "%.1f", row.percent),
                    String(row.inspections), row.neverInspected.map(String.init) ?? "-",
                    row.overdue.map(String.init) ?? "-",
                ])
            }
            return table
        }
    }
}

extension CoverageGrouping: ExpressibleByArgument {}
