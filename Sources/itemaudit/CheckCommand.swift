import ArgumentParser
import AuditService
import Datasheets
import Foundation
import Logging
import Rules

/// `itemaudit check FILE…`: imports datasheets and checks them against the rule sets.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check datasheets (JSON-LD, JSON Lines, CSV) against the GS1 and EU 1169/2011 rule sets.",
        discussion: """
            Exits 1 when any rule fails, 2 when a file cannot be read. Malformed records are reported on
            stderr with file, line and field; the rest is still checked.

            With --record, each datasheet and its findings are appended to the log in --data, so the
            product's quality history shows them (a product not seen before is registered from its
            datasheet; recording the same datasheet with the same rule sets again appends nothing).

            Example:
              itemaudit check products.jsonl --rules nutrition,allergens --format json
              itemaudit check supplier.csv --record --data ./itemaudit-data
            """)

    @Argument(help: "Datasheet files: .jsonld/.json, .jsonl/.ndjson or .csv.")
    var files: [String]

    @Option(help: "Comma-separated built-in rule sets or rule file paths (default: all built-in sets).")
    var rules: String?

    @Option(help: "Output format: table, json, csv or junit.")
    var format: CheckFormat = .table

    enum CheckFormat: String, ExpressibleByArgument { case table, json, csv, junit }

    @Flag(name: .customLong("record"), help: "Append the datasheets and their findings to the log in --data.")
    var recordToLog = false

    @OptionGroup var data: DataDirectoryOption

    @Flag(help: "With --record, do not print the note saying what was recorded.") var quiet = false

    func run() async throws {
        let engine: RuleEngine
        do {
            engine = try BuiltInRuleSets.engine(
                selection: rules.map { $0.split(separator: ",").map(String.init) } ?? [])
        } catch {
            throw CLIFailure.badInput("\(error) (fix the rule file or the --rules list)")
        }
        for file in files {
            try ServiceAccess.requireTextFile(file, kind: "a datasheet file: .jsonld/.json, .jsonl/.ndjson or .csv")
        }
        // Opened before checking, so a busy or unusable data directory fails fast, with nothing printed.
        let service = recordToLog ? try await ServiceAccess.open(data.url, logger: Self.logger) : nil
        var reports: [DatasheetReport] = []
        var checked: [(datasheet: Datasheet, report: DatasheetReport)] = []
        var summary = CheckSummary()
        var malformed = 0
        for file in files {
            do {
                try DatasheetImporter.read(path: file) { record in
                    switch record {
                    case .datasheet(let datasheet, let issues):
                        for issue in issues { FileHandle.standardError.write(Data("warning: \(issue)\n".utf8)) }
                        let report = engine.check(datasheet)
                        summary.add(report)
                        reports.append(report)
                        if recordToLog { checked.append((datasheet, report)) }
                    case .failed(let issue):
                        malformed += 1
                        FileHandle.standardError.write(Data("error: \(issue)\n".utf8))
                    }
                    return true
                }
            } catch {
                try? await service?.close()
                throw CLIFailure.badInput("\(error)")
            }
        }
        print(CheckOutput.render(reports: reports, summary: summary, format: format.rawValue), terminator: "")
        if let service {
            try await appendToLog(checked, ruleSets: engine.ruleSets.map(\.name), service: service)
        }
        if summary.failed > 0 {
            throw CLIFailure.problemsFound(
                "\(summary.failed) of \(summary.datasheets) datasheets failed (see the findings)")
        }
        if malformed > 0 && summary.datasheets == 0 {
            throw CLIFailure.badInput("no datasheet could be read (\(malformed) malformed records)")
        }
    }
}

extension CheckCommand {
    /// Appends the checked datasheets to the log and says on stderr what was recorded.
    static var logger: Logger {
        var logger = Logger(label: "itemaudit.check")
        logger.logLevel = .warning
        return logger
    }

    func appendToLog(
        _ checked: [(datasheet: Datasheet, report: DatasheetReport)], ruleSets: [String], service: AuditService
    ) async throws {
        var counts: [DatasheetRecording.Status: Int] = [:]
        do {
            // Chunks keep one durable write per thousand datasheets without holding every event at once.
            var start = 0
            while start < checked.count {
                let chunk = Array(checked[start..<min(start + 1000, checked.count)])
                start += chunk.count
                for recording in try await service.record(
                    checked: chunk, ruleSets: ruleSets, source: "check", actor: "data-steward")
                {
                    counts[recording.status, default: 0] += 1
                    if recording.status == .notRecorded {
                        FileHandle.standardError.write(
                            Data("warning: not recorded: \(recording.gtin): \(recording.reason ?? "refused")\n".utf8))
                    }
                }
            }
            try await service.close()
        } catch {
            try? await service.close()
            throw CLIFailure.badInput("recording failed: \(error) (what was printed as recorded is in the log)")
        }
        guard !quiet else { return }
        FileHandle.standardError.write(
            Data(
                ("recorded \(counts[.recorded] ?? 0) datasheets in \(data.url.path) "
                    + "(\(counts[.alreadyRecorded] ?? 0) already recorded, \(counts[.notRecorded] ?? 0) not recorded)\n")
                    .utf8))
    }
}

/// Renders check reports as table, JSON, CSV or JUnit XML.
enum CheckOutput {
    struct JSONReport: Encodable {
        var summary: CheckSummary
        var datasheets: [JSONDatasheet]
    }

    struct JSONDatasheet: Encodable {
        var gtin: String
        var source: String
        var verdict: Int
        var findings: [JSONFinding]
    }

    struct JSONFinding: Encodable {
        var rule, attribute: String
        var verdict: Int
        var severity, message, observed, expected, reference: String
    }

    static func render(reports: [DatasheetReport], summary: CheckSummary, format: String) -> String {
        switch format {
        case "json":
            let report = JSONReport(
                summary: summary,
                datasheets: reports.map { report in
                    JSONDatasheet(
                        gtin: report.gtin, source: report.source, verdict: report.verdict.rawValue,
                        findings: report.findings.map {
                            JSONFinding(
                                rule: $0.rule, attribute: $0.attribute, verdict: $0.verdict.rawValue,
                                severity: $0.severity, message: $0.message, observed: $0.observed,
                                expected: $0.expected, reference: $0.reference)
                        })
                })
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            return ((try? encoder.encode(report)).map { String(decoding: $0, as: UTF8.self) } ?? "{}") + "\n"
        case "junit":
            var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            xml += "<testsuites tests=\"\(summary.datasheets)\" failures=\"\(summary.failed)\">\n"
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
            var table = TextTable(columns: ["gtin", "source", "verdict", "rule", "attribute", "severity", "message"])
            for report in reports {
                if report.findings.isEmpty {
                    table.append([report.gtin, report.source, report.verdict.name, "", "", "", ""])
                }
                for finding in report.findings {
                    table.append([
                        report.gtin, report.source, report.verdict.name, finding.rule, finding.attribute,
                        finding.severity, finding.message,
                    ])
                }
            }
            let body = table.render(format == "csv" ? .csv : .table)
            if format == "csv" { return body }
            return body
                + "\n\(summary.datasheets) datasheets: \(summary.failed) failed, \(summary.warnings) with warnings, \(summary.passed) passed\n"
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
