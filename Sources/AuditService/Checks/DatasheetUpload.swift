import Datasheets
import Foundation
import Rules

/// Datasheets sent as bytes (an HTTP upload) rather than as files: imported and checked the way
/// `itemaudit check` does; ``AuditService/record(checked:ruleSets:source:actor:)`` records them.
public enum DatasheetUpload {
    /// What an upload held.
    public struct Checked: Sendable {
        /// Every datasheet read, with its findings.
        public var items: [(datasheet: Datasheet, report: DatasheetReport)]
        /// Records that could not be read, by line and field (`file` is the upload's name).
        public var unreadable: [ImportIssue]
        /// Totals over the checked datasheets.
        public var summary: CheckSummary
    }

    /// Imports `body` as `format` and checks every datasheet with `engine`; `name` stands for the
    /// file in issues and report sources (`body:3`).
    /// - Throws: ``ImportIssue`` when the body holds no datasheets at all (empty, or a CSV header
    ///   alone), or ``AuditServiceError`` when no temporary file can be written.
    public static func check(
        _ body: [UInt8], format: DatasheetFormat, engine: RuleEngine, name: String = "body"
    ) throws -> Checked {
        // The importers stream from files (they handle any size); an upload is at most a few MB.
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("itemaudit-upload-\(UUID().uuidString).\(format.rawValue)")
        do {
            try Data(body).write(to: file)
        } catch {
            throw AuditServiceError(
                .dataDirectory,
                "cannot write the upload to a temporary file: \(error) (set TMPDIR to a writable directory)")
        }
        defer { try? FileManager.default.removeItem(at: file) }
        var checked = Checked(items: [], unreadable: [], summary: CheckSummary())
        func named(_ issue: ImportIssue) -> ImportIssue {
            var issue = issue
            issue.file = name
            issue.message = issue.message.replacingOccurrences(of: file.path, with: name)
            return issue
        }
        do {
            try DatasheetImporter.read(path: file.path, format: format) { record in
                switch record {
                case .datasheet(let datasheet, _):
                    var report = engine.check(datasheet)
                    report.source = report.source.replacingOccurrences(of: file.path, with: name)
                    checked.summary.add(report)
                    checked.items.append((datasheet, report))
                case .failed(let issue):
                    checked.unreadable.append(named(issue))
                }
                return true
            }
        } catch {
            throw named(error)
        }
        return checked
    }
}
