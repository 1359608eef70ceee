import Datasheets
import Foundation
import GS1
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

    /// Imports `body` as `format` and checks every datasheet with `engine`, keeping every datasheet
    /// (to record them); `name` stands for the file in issues and report sources (`body:3`).
    /// - Throws: ``ImportIssue`` when the body holds no datasheets at all (empty, or a CSV header
    ///   alone), or ``AuditServiceError`` when no temporary file can be written.
    public static func check(
        _ body: [UInt8], format: DatasheetFormat, engine: RuleEngine, name: String = "body"
    ) throws -> Checked {
        var items: [(datasheet: Datasheet, report: DatasheetReport)] = []
        let scanned = try scan(body, format: format, engine: engine, name: name) { datasheet, report in
            items.append((datasheet, report))
            return true
        }
        return Checked(items: items, unreadable: scanned.unreadable, summary: scanned.summary)
    }

    /// What a scan saw besides the reports it handed over.
    public struct Scanned: Sendable {
        /// Records that could not be read, by line and field.
        public var unreadable: [ImportIssue] = []
        /// Totals over the checked datasheets.
        public var summary = CheckSummary()

        /// What a scan saw, from its parts.
        public init(unreadable: [ImportIssue] = [], summary: CheckSummary = CheckSummary()) {
            self.unreadable = unreadable
            self.summary = summary
        }
    }

    /// Imports `body` and hands each datasheet with its report to `visit` as it is checked, keeping
    /// no reports (the body's datasheets are read first, so a parent sees its children's net
    /// contents: memory is that of the body's datasheets, which the body limit bounds); `visit`
    /// returns false to stop. With
    /// `engine` nil the records are only read (to find unreadable ones before answering).
    /// - Throws: as ``check(_:format:engine:name:)``.
    public static func scan(
        _ body: [UInt8], format: DatasheetFormat, engine: RuleEngine?, name: String = "body",
        _ visit: (Datasheet, DatasheetReport) -> Bool = { _, _ in true }
    ) throws -> Scanned {
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
        var scanned = Scanned()
        func named(_ issue: ImportIssue) -> ImportIssue {
            var issue = issue
            issue.file = name
            issue.message = issue.message.replacingOccurrences(of: file.path, with: name)
            return issue
        }
        // All read before any is checked (an upload is small), so a case or pallet is checked with
        // its children's net contents wherever they are in the body (ChildNetContents, QTY-010).
        var datasheets: [Datasheet] = []
        var netContents = ChildNetContents()
        do {
            try DatasheetImporter.read(path: file.path, format: format) { record in
                switch record {
                case .datasheet(let datasheet, _):
                    guard engine != nil else { return true }
                    netContents.remember(datasheet)
                    datasheets.append(datasheet)
                case .failed(let issue):
                    scanned.unreadable.append(named(issue))
                }
                return true
            }
        } catch {
            throw named(error)
        }
        guard let engine else { return scanned }
        for datasheet in datasheets {
            var report = engine.check(netContents.annotated(datasheet))
            report.source = report.source.replacingOccurrences(of: file.path, with: name)
            scanned.summary.add(report)
            guard visit(datasheet, report) else { break }
        }
        return scanned
    }

    /// The id `datasheet` is recorded under in the log (nil without a valid GTIN: not recordable).
    public static func datasheetID(of datasheet: Datasheet) -> String? {
        guard let gtin = try? GTIN(datasheet.gtin ?? "") else { return nil }
        return AuditService.datasheetID(gtin: gtin, datasheet: datasheet)
    }
}
