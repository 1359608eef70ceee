import ArgumentParser
import AuditService
import Foundation
import Logging

/// `itemaudit check FILE…`: imports datasheets and checks them against the rule sets.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check datasheets (JSON-LD, JSON Lines, CSV) against the GS1 and EU 1169/2011 rule sets.",
        discussion: """
            Exits 1 when any rule fails or any record cannot be read, 2 when a file cannot be read or \
            holds no datasheets. Unreadable records (bad JSON, a CSV row with the wrong number of cells, \
            bytes that are not UTF-8) are reported on stderr with file, line and byte, counted as \
            unreadable in the summary, and the rest is still checked. CSV columns that are no GS1 Web \
            Vocabulary term are reported once per file with the nearest term. FILE - reads standard \
            input (JSON Lines unless --stdin-format says otherwise).

            Supplier datasheets are master data: only the rules that apply to master data run (a lot's \
            dates and measured values belong to an inspected item: --subject physical-item).

            With --record, each datasheet and its findings are appended to the log in --data, so the \
            product's quality history shows them (a product not seen before is registered from its \
            datasheet; recording the same datasheet with the same rule sets again appends nothing).

            Example:
              itemaudit check products.jsonl --rules nutrition,allergens --format json
              itemaudit check supplier.csv --record --data ./itemaudit-data
            """)

    @Argument(help: "Datasheet files: .jsonld/.json, .jsonl/.ndjson, .csv or GDSN CIN .xml (XML also by its content); - for standard input.")
    var files: [String]

    @Option(help: "The format of standard input (FILE -): jsonl, jsonld or csv.")
    var stdinFormat: String = "jsonl"

    @Option(help: "Comma-separated built-in rule sets or rule file paths (default: all built-in sets).")
    var rules: String?

    @Option(
        help:
            "What the datasheets describe: master-data (a supplier's datasheet) or physical-item (an inspected pack, with lot dates and measured values)."
    )
    var subject: Applicability.Subject = .masterData

    @Option(help: "Output format: table, json, csv or junit.")
    var format: CheckFormat = .table

    enum CheckFormat: String, CaseIterable, ExpressibleByArgument { case table, json, csv, junit }

    @OptionGroup var spreadsheet: SpreadsheetOption

    @Flag(name: .customLong("record"), help: "Append the datasheets and their findings to the log in --data.")
    var recordToLog = false

    @OptionGroup var data: DataDirectoryOption

    @Flag(help: "With --record, do not print the note saying what was recorded.") var quiet = false

    func validate() throws { try spreadsheet.validate(isCSV: format == .csv) }

    func run() async throws {
        let engine: RuleEngine
        do {
            engine = try RuleBook.engine(
                selection: rules.map { $0.split(separator: ",").map(String.init) } ?? [], subject: subject)
        } catch {
            throw CLIFailure.badInput("\(error) (fix the rule file or the --rules list)")
        }
        for file in files where file != "-" {
            try ServiceAccess.requireTextFile(file, kind: "a datasheet file: .jsonld/.json, .jsonl/.ndjson, .csv or .xml")
        }
        guard let inputFormat = DatasheetFormat(rawValue: stdinFormat) else {
            throw CLIFailure.badInput("--stdin-format must be jsonl, jsonld, csv or xml (got '\(stdinFormat)')")
        }
        // Opened before checking, so a busy or unusable data directory fails fast, with nothing printed.
        let service = recordToLog ? try await ServiceAccess.open(data, logger: Self.logger) : nil
        var reports: [DatasheetReport] = []
        var summary = CheckSummary()
        var malformed = 0
        var recorded = RecordingTally()
        let ruleSets = engine.ruleSets.map(\.name)
        let feed = DatasheetCheckFeed(files: files, engine: engine, standardInputFormat: inputFormat)
        do {
            for try await chunk in feed.chunks {
                var checked: [(datasheet: Datasheet, report: DatasheetReport)] = []
                for item in chunk {
                    switch item {
                    case .checked(let datasheet, let report, let issues):
                        for issue in issues { FileHandle.standardError.write(Data("warning: \(issue)\n".utf8)) }
                        summary.add(report)
                        reports.append(report)
                        if service != nil { checked.append((datasheet, report)) }
                    case .failed(let issue):
                        malformed += 1
                        FileHandle.standardError.write(Data("error: \(issue)\n".utf8))
                    }
                }
                // Recorded chunk by chunk, so no more than a few thousand datasheets are held at once.
                if let service {
                    try await record(checked, ruleSets: ruleSets, service: service, tally: &recorded)
                }
                feed.consumed()
            }
        } catch let failure as CLIFailure {
            feed.cancel()
            try? await service?.close()
            throw failure
        } catch {
            feed.cancel()
            try? await service?.close()
            throw CLIFailure.badInput("\(error)")
        }
        if let service {
            do { try await service.close() } catch {
                throw CLIFailure.badInput("closing the log failed: \(error) (run itemaudit verify)")
            }
        }
        let counts = CheckOutput.Summary(summary, unreadable: malformed)
        print(
            CheckOutput.render(
                reports: reports, summary: counts, format: format.rawValue, excel: spreadsheet.excel), terminator: "")
        if service != nil {
            for line in recorded.summary() { FileHandle.standardError.write(Data("warning: \(line)\n".utf8)) }
        }
        if service != nil, !quiet {
            FileHandle.standardError.write(
                Data(
                    ("recorded \(recorded.counts[.recorded] ?? 0) datasheets in \(data.url.path) "
                        + "(\(recorded.counts[.alreadyRecorded] ?? 0) already recorded, "
                        + "\(recorded.counts[.notRecorded] ?? 0) not recorded)\n").utf8))
        }
        if malformed > 0 && summary.datasheets == 0 {
            throw CLIFailure.badInput(
                "no datasheet could be read (\(malformed) unreadable records; see the lines above)")
        }
        if summary.failed > 0 || malformed > 0 {
            let failed = summary.failed > 0 ? "\(summary.failed) of \(counts.datasheets) datasheets failed" : nil
            let unreadable = malformed > 0 ? "\(malformed) could not be read" : nil
            throw CLIFailure.problemsFound(
                [failed, unreadable].compactMap { $0 }.joined(separator: ", ")
                    + (malformed > 0 ? " (see the findings and the error lines)" : " (see the findings)"))
        }
    }
}

extension CheckCommand {
    static var logger: Logger {
        var logger = Logger(label: "itemaudit.check")
        logger.logLevel = .warning
        return logger
    }

    /// Appends one chunk of checked datasheets to the log, counting what happened to each.
    func record(
        _ checked: [(datasheet: Datasheet, report: DatasheetReport)], ruleSets: [String], service: AuditService,
        tally: inout RecordingTally
    ) async throws {
        let recordings: [DatasheetRecording]
        do {
            recordings = try await service.record(
                checked: checked, ruleSets: ruleSets, source: "check", actor: "data-steward")
        } catch {
            throw CLIFailure.badInput(
                "recording failed: \(error) (the datasheets before this chunk are in the log; run again to add the rest)"
            )
        }
        for (item, recording) in zip(checked, recordings) {
            if let line = tally.add(recording, source: item.report.source) {
                FileHandle.standardError.write(Data("warning: \(line)\n".utf8))
            }
        }
    }
}

extension Applicability.Subject: ExpressibleByArgument {}

/// What `check --record` did with each datasheet: counts, and the datasheets not recorded, named by
/// file and line; the first few of each reason are listed, the rest summed up at the end.
struct RecordingTally {
    static let listedPerReason = 3
    var counts: [DatasheetRecording.Status: Int] = [:]
    /// Per reason: how many, and where the first was.
    private var reasons: [(reason: String, count: Int, first: String)] = []

    /// Counts one recording; returns the warning to print now, if any.
    mutating func add(_ recording: DatasheetRecording, source: String) -> String? {
        counts[recording.status, default: 0] += 1
        guard recording.status == .notRecorded else { return nil }
        let reason = recording.reason ?? "refused"
        let place = source.isEmpty ? "a datasheet" : source
        let index: Int
        if let found = reasons.firstIndex(where: { $0.reason == reason }) {
            index = found
            reasons[index].count += 1
        } else {
            reasons.append((reason, 1, place))
            index = reasons.count - 1
        }
        guard reasons[index].count <= Self.listedPerReason else { return nil }
        let gtin = recording.gtin.isEmpty ? "" : " (gtin \(recording.gtin))"
        return "\(place)\(gtin): not recorded: \(reason)"
    }

    /// One line per reason with more datasheets than were listed.
    func summary() -> [String] {
        reasons.filter { $0.count > Self.listedPerReason }.map {
            "\($0.count) datasheets not recorded: \($0.reason) (the first at \($0.first); "
                + "\($0.count - Self.listedPerReason) not listed)"
        }
    }
}

/// Renders check reports as table, JSON, CSV or JUnit XML.
enum CheckOutput {
    /// The counts printed: every record read, those that could not be read, and the verdicts.
    struct Summary: Encodable {
        var datasheets, unreadable, failed, warnings, passed: Int

        init(_ summary: CheckSummary, unreadable: Int) {
            datasheets = summary.datasheets + unreadable
            self.unreadable = unreadable
            failed = summary.failed
            warnings = summary.warnings
            passed = summary.passed
        }
    }

    struct JSONReport: Encodable {
        var summary: Summary
        var datasheets: [JSONDatasheet]
    }

    /// A datasheet's result: the verdict's code (as the rule engine and devices speak it) and its label.
    struct JSONDatasheet: Encodable {
        var gtin: String
        var source: String
        var verdict: Int
        var verdictLabel: String
        var findings: [JSONFinding]
    }

    struct JSONFinding: Encodable {
        var rule, attribute: String
        var verdict: Int
        var verdictLabel: String
        var severity, message, observed, expected, reference: String
    }

    static func render(reports: [DatasheetReport], summary: Summary, format: String, excel: Bool = false) -> String {
        switch format {
        case "json":
            let report = JSONReport(
                summary: summary,
                datasheets: reports.map { report in
                    JSONDatasheet(
                        gtin: report.gtin, source: report.source, verdict: report.verdict.rawValue,
                        verdictLabel: report.verdict.name,
                        findings: report.findings.map {
                            JSONFinding(
                                rule: $0.rule, attribute: $0.attribute, verdict: $0.verdict.rawValue,
                                verdictLabel: $0.verdict.name,
                                severity: $0.severity, message: $0.message, observed: $0.observed,
                                expected: $0.expected, reference: $0.reference)
                        })
                })
            return JSONOutput.text(report, fallback: "{}")
        case "junit":
            var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            xml +=
                "<testsuites tests=\"\(summary.datasheets)\" failures=\"\(summary.failed)\" errors=\"\(summary.unreadable)\">\n"
            for report in reports {
                let failures = report.findings.filter { $0.verdict == .failure }
                xml +=
                    "  <testsuite name=\"\(escape(report.gtin))\" tests=\"1\" failures=\"\(failures.isEmpty ? 0 : 1)\">\n"
                xml += "    <testcase name=\"\(escape(report.source))\" classname=\"\(escape(report.gtin))\">\n"
                for finding in report.findings {
                    let tag = finding.verdict == .failure ? "failure" : "system-out"
                    xml +=
                        "      <\(tag)\(tag == "failure" ? " type=\"\(escape(finding.rule))\" message=\"\(escape(finding.message))\"" : "")>"
                    xml += escape("\(finding.rule) \(finding.attribute): \(finding.message) [\(finding.reference)]")
                    xml += "</\(tag)>\n"
                }
                xml += "    </testcase>\n  </testsuite>\n"
            }
            return xml + "</testsuites>\n"
        default:
            var table = TextTable(columns: [
                "gtin", "source", "verdictLabel", "rule", "attribute", "severity", "observed", "expected", "message",
            ])
            for report in reports {
                if report.findings.isEmpty {
                    table.append([report.gtin, report.source, report.verdict.name, "", "", "", "", "", ""])
                }
                for finding in report.findings {
                    table.append([
                        report.gtin, report.source, report.verdict.name, finding.rule, finding.attribute,
                        finding.severity, finding.observed, finding.expected, finding.message,
                    ])
                }
            }
            if format == "csv" { return table.renderCSV(excel: excel) }
            let body = table.renderText()
            return body
                + "\n\(summary.datasheets) datasheets: "
                + (summary.unreadable > 0 ? "\(summary.unreadable) unreadable, " : "")
                + "\(summary.failed) failed, \(summary.warnings) with warnings, \(summary.passed) passed\n"
        }
    }

    static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }
}
