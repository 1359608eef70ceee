import ArgumentParser
import AuditService
import Foundation

/// `itemaudit batches`: the list of batches, filtered by status, mode, inspector or location.
struct BatchesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batches",
        abstract: "List batches: status, mode, inspector, location, allocation and counts.",
        discussion: """
            Status and mode take a name or the seed's code: --status submitted (or 6), --mode \
            wholesale (or 0); a name of two words may be written with a hyphen (new-product).

            Example:
              itemaudit batches --status submitted --inspector inspector-2
            """
    )

    @OptionGroup var data: DataDirectoryOption
    @OptionGroup var output: FormatOption
    @OptionGroup var asOf: AsOfOptions

    @Option(help: "Only batches with this status (assigned … submitted, cancelled; or 0–7).")
    var status: String?

    @Option(help: "Only batches of this mode (wholesale, new-product, existing-product, reinspection, ad-hoc; or 0–4).")
    var mode: String?

    @Option(help: "Only batches of this inspector id.") var inspector: String?
    @Option(help: "Only batches at this location id.") var location: String?

    func validate() throws {
        if let status, Self.code(status, of: 0...7, label: { ReportLabels.batchStatus($0) }) == nil {
            throw ValidationError(
                "--status '\(status)' is not a batch status (use \((0...7).map { ReportLabels.batchStatus($0) }.joined(separator: ", ")) or 0-7)"
            )
        }
        if let mode, Self.code(mode, of: 0...4, label: { ReportLabels.mode($0) }) == nil {
            throw ValidationError(
                "--mode '\(mode)' is not a mode (use \((0...4).map { ReportLabels.mode($0) }.joined(separator: ", ")) or 0-4)"
            )
        }
    }

    /// The code `text` names: the number itself or a label (case and hyphens ignored).
    static func code(_ text: String, of codes: ClosedRange<Int>, label: (Int) -> String) -> Int? {
        if let number = Int(text) { return codes.contains(number) ? number : nil }
        let wanted = text.lowercased().replacingOccurrences(of: "-", with: " ")
        return codes.first { label($0).lowercased() == wanted }
    }

    func run() throws {
        let filter = BatchFilter(
            status: status.flatMap { Self.code($0, of: 0...7, label: { ReportLabels.batchStatus($0) }) },
            mode: mode.flatMap { Self.code($0, of: 0...4, label: { ReportLabels.mode($0) }) },
            inspectorID: inspector, locationID: location)
        let rows = try asOf.queries(data).batches(filter)
        output.emit(rows) {
            var table = TextTable(
                columns: [
                    "batchID", "statusLabel", "modeLabel", "inspectorID", "locationID", "allocatedAt", "expiresAt",
                    "taskCount", "collected", "skipped", "passed", "failed",
                ], rightAligned: Set(7...11))
            for row in rows {
                table.append(
                    [
                        row.batchID, row.statusLabel + (row.expired ? " (expired)" : ""), row.modeLabel,
                        row.inspectorID, row.locationID, ProjectionAccess.time(row.allocatedAt),
                        ProjectionAccess.time(row.expiresAt),
                    ] + [row.taskCount, row.collected, row.skipped, row.passed, row.failed].map { String($0) })
            }
            return table
        }
    }
}

/// `itemaudit overdue`: received samples past their inspect-before date and not inspected since.
struct OverdueCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "overdue",
        abstract: "List received samples past their inspect-before date and not inspected since they were received.",
        discussion: """
            The products coverage counts as overdue, most overdue first, as of now (or as of \
            --as-of: the time of that point in the log).

            Example:
              itemaudit overdue --format csv --excel > overdue.csv
            """
    )

    @OptionGroup var data: DataDirectoryOption
    @OptionGroup var output: FormatOption
    @OptionGroup var asOf: AsOfOptions

    func run() throws {
        let rows = try asOf.queries(data).overdueSamples()
        output.emit(rows) {
            var table = TextTable(
                columns: ["gtin", "name", "productTypeLabel", "receivedAt", "inspectBefore", "daysOverdue"],
                rightAligned: [5])
            for row in rows {
                table.append([
                    row.gtin, row.name.isEmpty ? "-" : row.name, row.productTypeLabel,
                    ProjectionAccess.time(row.receivedAt), ProjectionAccess.time(row.inspectBefore),
                    String(row.daysOverdue),
                ])
            }
            return table
        }
    }
}
