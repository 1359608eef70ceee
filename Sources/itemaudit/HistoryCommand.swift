import ArgumentParser
import AuditService
import Foundation

/// `itemaudit history`: the auditor's timeline of a product, batch, task or inspector.
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "The auditor's timeline: position, recorded and occurred time, actor, event, summary.",
        discussion: """
            Read straight from the log. With --as-of TIME|POSITION, only what the log held then \
            (recorded at or before TIME, or up to POSITION). With --from/--to, only the events \
            that occurred in that period.

            Example:
              itemaudit history --batch B2 --as-of 2026-01-07T12:00:00Z
              itemaudit history --inspector inspector-1 --from 2026-01-06 --to 2026-01-07
            """
    )

    @OptionGroup var data: DataDirectoryOption
    @OptionGroup var output: FormatOption
    @OptionGroup var period: PeriodOptions

    @Option(help: "A product's GTIN.")
    var gtin: String?

    @Option(help: "A batch id.")
    var batch: String?

    @Option(help: "A task id.")
    var task: String?

    @Option(help: "An inspector id.")
    var inspector: String?

    @Option(
        name: .customLong("as-of"),
        help: ArgumentHelp("Only what the log held at this ISO 8601 time or position.", valueName: "time|position"))
    var asOf: LogPoint?

    func validate() throws {
        let given = [gtin, batch, task, inspector].compactMap { $0 }
        guard given.count == 1 else {
            throw ValidationError("give exactly one of --gtin, --batch, --task, --inspector")
        }
    }

    var subject: HistorySubject {
        if let gtin {
            let digits = gtin.filter(\.isNumber)
            return .gtin(
                digits.count == gtin.count && digits.count < 14
                    ? String(repeating: "0", count: 14 - digits.count) + digits : gtin)
        }
        if let batch { return .batch(batch) }
        if let task { return .task(task) }
        return .inspector(inspector ?? "")
    }

    var subjectDescription: String {
        switch subject {
        case .gtin(let gtin): "product \(gtin)"
        case .batch(let batch): "batch \(batch)"
        case .task(let task): "task \(task)"
        case .inspector(let inspector): "inspector \(inspector)"
        }
    }

    var subjectHint: String {
        switch subject {
        case .gtin: "check the GTIN, or search with itemaudit search"
        case .batch, .task: "check the id, e.g. with itemaudit history --inspector"
        case .inspector: "check the id, e.g. with itemaudit inspectors"
        }
    }

    func run() async throws {
        let queries = try ProjectionAccess.queries(data)
        let end = try asOf.map { try queries.position(of: $0, option: "--as-of") }
        let entries = try await queries.history(subject, upTo: end, from: period.fromTime, to: period.toTime)
        // Nothing at all about the subject is a mistyped id, not an empty history; nothing
        // as of an early point or in a period, when there is something else, is an honest empty answer.
        let unbounded = end == nil && period.fromTime == nil && period.toTime == nil
        if entries.isEmpty, unbounded ? true : try await queries.history(subject, upTo: nil).isEmpty {
            throw CLIFailure.badInput("no \(subjectDescription) in the log (\(subjectHint))")
        }
        output.emit(entries) {
            var table = TextTable(
                columns: ["position", "recordedAt", "occurredAt", "actor", "eventType", "summary"], rightAligned: [0])
            for entry in entries {
                table.append([
                    String(entry.position), ProjectionAccess.time(entry.recordedAt),
                    ProjectionAccess.time(entry.occurredAt), entry.actor, entry.eventType, entry.summary,
                ])
            }
            return table
        }
    }
}
