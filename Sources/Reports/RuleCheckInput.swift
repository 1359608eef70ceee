import AuditService
import Foundation

/// The findings of one datasheet file, as the rule-check page shows them: every datasheet's
/// report, and the records that could not be read.
public struct RuleCheckInput: Sendable {
    /// The file's name for people (the upload's name, or the path).
    public var source: String
    /// One report per datasheet read, in file order.
    public var reports: [DatasheetReport]
    /// The records that could not be read, each naming its line and what was wrong.
    public var unreadable: [String]

    /// Findings already made (by the server, say).
    public init(source: String, reports: [DatasheetReport], unreadable: [String] = []) {
        self.source = source
        self.reports = reports
        self.unreadable = unreadable
    }

    /// Checks an uploaded file's bytes, its format told by `fileName`'s extension, with the built-in
    /// rule sets named in `rules` (all when empty). Synchronous: the server runs it on its check
    /// workers, and only the reports are kept (not the datasheets).
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
        var input = RuleCheckInput(source: fileName, reports: [])
        do {
            let scanned = try DatasheetUpload.scan(body, format: format, engine: engine, name: fileName) { _, report in
                input.reports.append(report)
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
                    case .checked(_, let report, _): input.reports.append(report)
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
