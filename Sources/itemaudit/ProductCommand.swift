import ArgumentParser
import AuditService
import Foundation

/// `itemaudit product GTIN`: the product's quality history.
struct ProductCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "product",
        abstract:
            "A product's quality history: every inspection and rule check, verdict counts, failing attributes, trend.",
        discussion: """
            GTIN-8, -12 and -13 are padded to 14 digits. Exit code 2 when the product is unknown.

            Example:
              itemaudit product 00041771989804 --format json
            """
    )

    @OptionGroup var data: DataDirectoryOption
    @OptionGroup var output: FormatOption
    @OptionGroup var asOf: AsOfOptions

    @Argument(help: "The product's GTIN.")
    var gtin: String

    func run() throws {
        guard let quality = try asOf.queries(data).product(gtin: gtin) else {
            throw CLIFailure.badInput("no product \(gtin) in the log (check the GTIN, or search with itemaudit search)")
        }
        if output.format == .table {
            print(Self.headline(quality))
            let packaging = try asOf.queries(data).packagingHierarchy(gtin: quality.gtin)
            for line in Self.packagingLines(packaging) { print(line) }
        }
        output.emit(quality) { Self.table(quality) }
    }

    /// One line about the product: name, inspections, last inspected, trend.
    static func headline(_ quality: ProductQuality) -> String {
        let name = quality.product.map { "\($0.name) (\($0.brand), \($0.manufacturer))" } ?? "unregistered"
        return
            "\(quality.gtin) \(name): \(counted(quality.inspections.count, "inspection")), \(quality.passedInspections) passed, "
            + "\(quality.failedInspections) failed, last \(ProjectionAccess.time(quality.lastInspectedAt)), trend \(quality.trend)"
    }

    /// What the product directly contains (with quantities) and what contains it, one line each;
    /// none for a product outside any registered hierarchy.
    static func packagingLines(_ packaging: PackagingHierarchy?) -> [String] {
        guard let packaging else { return [] }
        var lines: [String] = []
        let children = packaging.product.children
        if !children.isEmpty {
            lines.append("contains: " + children.map { "\($0.quantity) × \($0.gtin)" }.joined(separator: ", "))
        }
        let parents = packaging.containedIn.filter { $0.children.contains { $0.gtin == packaging.product.gtin } }
        if !parents.isEmpty {
            lines.append("contained in: " + parents.map(\.gtin).joined(separator: ", "))
        }
        return lines
    }

    /// The product's inspections and rule checks in log order (also printed by `demo`).
    static func table(_ quality: ProductQuality) -> TextTable {
        var table = TextTable(
            columns: [
                "position", "occurredAt", "kind", "taskOrDatasheet", "inspectorID", "resultLabel", "passed",
                "warning", "failure", "unable", "failing",
            ],
            rightAligned: [0, 6, 7, 8, 9])
        var rows: [(UInt64, [String])] = quality.inspections.map { item in
            (
                item.position,
                [
                    String(item.position), ProjectionAccess.time(item.occurredAt), "inspection", item.taskID,
                    item.inspectorID, item.resultLabel, String(item.passed),
                    String(item.warning), String(item.failure), String(item.unable),
                    item.failing.map(\.text).joined(separator: "; "),
                ]
            )
        }
        rows += quality.ruleChecks.map { item in
            (
                item.position,
                [
                    String(item.position), ProjectionAccess.time(item.occurredAt), "rule-check", item.datasheetID,
                    "-", item.failure > 0 ? "failed" : "passed", String(item.passed), String(item.warning),
                    String(item.failure), String(item.unable), item.failing.map(\.text).joined(separator: "; "),
                ]
            )
        }
        for (_, row) in rows.sorted(by: { $0.0 < $1.0 }) { table.append(row) }
        return table
    }
}
