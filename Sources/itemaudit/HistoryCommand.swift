import ArgumentParser
import AuditService
import Foundation

/// `itemaudit history`: the auditor's timeline of a product, batch, task or inspector.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "The auditor's timeline: position, recorded and occurred time, actor, event, summary.",
        discussion: """
            Read straight from the log. With --as-of TIME|POSITION, only what the log held then \
            (recorded at or before TIME, or up to POSITION).

            Example:
              itemaudit history --batch B42 --as-of 2026-02-01T12:00:00Z
            """
    )

    @OptionGroup var data: DataDirectoryOption
    @OptionGroup var output: FormatOption

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

    func run() throws {
        let queries = try ProjectionAccess.queries(data.url)
        let end = try asOf.map { try queries.position(of: $0, option: "--as-of") }
        let entries = try queries.history(subject, upTo: end)
        // Nothing at all about the subject is a mistyped id, not an empty history; nothing
        // as of an early point, when there is something later, is an honest empty answer.
        if entries.isEmpty, try end == nil || queries.history(subject, upTo: nil).isEmpty {
            throw CLIFailure.badInput("no \(subjectDescription) in the log (\(subjectHint))")
        }
        output.format.emit(entries) {
            var table = TextTable(
                columns: ["position", "recorded_at", "occurred_at", "actor", "event", "summary"], rightAligned: [0])
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
