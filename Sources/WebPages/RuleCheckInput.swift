import AuditService
import Foundation

/// The findings of one datasheet file, as the rule-check page shows them: the datasheets' reports,
/// totals over all of them, and the records that could not be read.
///
/// A file checked for the page alone (``check(upload:fileName:rules:)``) keeps only the reports
/// the page lists, so its memory does not grow with the file; its totals still count every
/// datasheet. Otherwise every report is kept (the static report writes them all as CSV).
public struct RuleCheckInput: Sendable {
    /// The file's name for people (the upload's name, or the path).
    public var source: String
    /// The reports kept, in file order: every one, or only the first with findings.
    public private(set) var reports: [DatasheetReport] = []
    /// The records that could not be read, each naming its line and what was wrong.
    public var unreadable: [String]
    /// Totals over every datasheet read, kept or not.
    public private(set) var summary = CheckSummary()
    /// Findings over every datasheet read.
    public private(set) var findingCount = 0
    /// Datasheets with at least one finding.
    public private(set) var datasheetsWithFindings = 0
    /// Findings by rule over every datasheet read.
    private(set) var byRule = RuleTally()
    /// Keep a report with findings while fewer than this many such reports, or findings, are
    /// kept; nil keeps every report.
    private let keptAtMost: Int?
    private var findingsKept = 0

    /// Findings already made (by the server, say); every report is kept.
    public init(source: String, reports: [DatasheetReport], unreadable: [String] = []) {
        self.source = source
        self.unreadable = unreadable
        keptAtMost = nil
        for report in reports { add(report) }
    }

    /// An empty input that will keep the reports of the first `limit` datasheets with findings,
    /// and more until `limit` findings are kept.
    init(source: String, keepingFirst limit: Int) {
        self.source = source
        self.unreadable = []
        keptAtMost = limit
    }

    /// Counts `report`, the next datasheet of the file, and keeps it if the page may show it.
    public mutating func add(_ report: DatasheetReport) {
        byRule.add(report, index: summary.datasheets)
        summary.add(report)
        findingCount += report.findings.count
        if !report.findings.isEmpty { datasheetsWithFindings += 1 }
        guard let limit = keptAtMost else {
            reports.append(report)
            return
        }
        guard !report.findings.isEmpty, reports.count < limit || findingsKept < limit else { return }
        reports.append(report)
        findingsKept += report.findings.count
    }

    /// Checks an uploaded file's bytes, its format told by `fileName`'s extension, with the built-in
    /// rule sets named in `rules` (all when empty). Synchronous: the server runs it on its check
    /// workers. Keeps the totals and the reports the page lists (``RuleChecksPage/findingsShown``).
    /// - Throws: ``ReportError`` 400 when the format, a rule set or the whole file is unreadable.
    public static func check(upload body: [UInt8], fileName: String, rules: [String] = []) throws -> RuleCheckInput {
        guard let format = DatasheetFormat(fileName: fileName) else {
            throw ReportError(
                code: "invalid-parameter",
                message: "the file must end in .jsonl, .json, .jsonld or .csv (the format is told by it)", status: 400)
        }
        let engine: RuleEngine
        do {
            engine = try RuleBook.engine(selection: rules)
        } catch {
            throw ReportError(code: "invalid-parameter", message: "\(error) (fix the rule set names)", status: 400)
        }
        var input = RuleCheckInput(source: fileName, keepingFirst: RuleChecksPage.findingsShown)
        do {
            let scanned = try DatasheetUpload.scan(body, format: format, engine: engine, name: fileName) { _, report in
                input.add(report)
                return true
            }
            input.unreadable = scanned.unreadable.map { "\($0)" }
        } catch {
            throw ReportError(
                code: "unreadable", message: "cannot read datasheet file \(fileName): \(error)", status: 400)
        }
        return input
    }

    /// Reads and checks the datasheet file at `path` (JSON-LD, JSON Lines or CSV, told by its
    /// extension) with the built-in rule sets named in `rules` (all when empty), as
    /// `itemaudit check` does for master data. `displayName` names it on the page (the path when nil).
    /// - Throws: ``ReportError`` 400 when the file cannot be read or a rule set is unknown.
    public static func check(file path: String, displayName: String? = nil, rules: [String] = []) async throws
        -> RuleCheckInput
    {
        let engine: RuleEngine
        do {
            engine = try RuleBook.engine(selection: rules)
        } catch {
            throw ReportError(code: "invalid-parameter", message: "\(error) (fix the rule set names)", status: 400)
        }
        var input = RuleCheckInput(source: displayName ?? path, reports: [])
        let feed = DatasheetCheckFeed(files: [path], engine: engine)
        do {
            for try await chunk in feed.chunks {
                for item in chunk {
                    switch item {
                    case .checked(_, let report, _): input.add(report)
                    case .failed(let issue): input.unreadable.append("\(issue)")
                    }
                }
                feed.consumed()
            }
        } catch {
            feed.cancel()
            throw ReportError(
                code: "unreadable", message: "cannot read datasheet file \(displayName ?? path): \(error)", status: 400)
        }
        return input
    }
}
