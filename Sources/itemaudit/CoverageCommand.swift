import ArgumentParser
import AuditService
import Foundation

/// `itemaudit coverage`: how much of the catalogue was inspected, per group and period.
struct CoverageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coverage",
        abstract:
            "Coverage per product type, mode, inspector or location: catalogue, inspected, %, never inspected, overdue.",
        discussion: """
            Products count as inspected when an inspection of them finished in the period. Overdue: \
            received products past their inspect-before date by the end of the period (or now) \
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
        let queries = try ProjectionAccess.queries(data.url)
        let to = period.toMicros ?? Timestamp(Date()).microsecondsSinceEpoch
        let rows = try queries.coverage(from: period.fromMicros, to: to, by: by)
        output.format.emit(rows) { Self.table(rows, by: by) }
    }

    /// The coverage rows as a table (also printed by `demo`).
    static func table(_ rows: [CoverageRow], by: CoverageGrouping) -> TextTable {
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

extension CoverageGrouping: ExpressibleByArgument {}

extension CoverageCommand {
    /// A group key for people: product types and modes get their names beside their codes.
    static func label(_ group: String, _ grouping: CoverageGrouping) -> String {
        guard let code = Int(group) else { return group }
        let name: String? =
            switch grouping {
            case .type: ["base", "case", "pallet"].indices.contains(code) ? ["base", "case", "pallet"][code] : nil
            case .mode:
                ["wholesale", "new product", "existing product", "reinspection", "ad-hoc"].indices.contains(code)
                    ? ["wholesale", "new product", "existing product", "reinspection", "ad-hoc"][code] : nil
            default: nil
            }
        return name.map { "\(code) \($0)" } ?? group
    }
}
