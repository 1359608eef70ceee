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
            Exits 1 when any rule fails, 2 when a file cannot be read. Malformed records are reported on \
            stderr with file, line and field; the rest is still checked.

            With --record, each datasheet and its findings are appended to the log in --data, so the \
            product's quality history shows them (a product not seen before is registered from its \
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

    enum CheckFormat: String, CaseIterable, ExpressibleByArgument { case table, json, csv, junit }

    @Flag(name: .customLong("record"), help: "Append the datasheets and their findings to the log in --data.")
    var recordToLog = false

    @OptionGroup var data: DataDirectoryOption

    @Flag(help: "With --record, do not print the note saying what was recorded.") var quiet = false

    func run() async throws {
        let engine: RuleEngine
        do {
            engine = try RuleBook.engine(
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
        var summary = CheckSummary()
        var malformed = 0
        var recorded: [DatasheetRecording.Status: Int] = [:]
        let ruleSets = engine.ruleSets.map(\.name)
        let feed = DatasheetCheckFeed(files: files, engine: engine)
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
                    try await record(checked, ruleSets: ruleSets, service: service, counts: &recorded)
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
        print(CheckOutput.render(reports: reports, summary: summary, format: format.rawValue), terminator: "")
        if service != nil, !quiet {
            FileHandle.standardError.write(
                Data(
                    ("recorded \(recorded[.recorded] ?? 0) datasheets in \(data.url.path) "
                        + "(\(recorded[.alreadyRecorded] ?? 0) already recorded, "
                        + "\(recorded[.notRecorded] ?? 0) not recorded)\n").utf8))
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
    static var logger: Logger {
        var logger = Logger(label: "itemaudit.check")
        logger.logLevel = .warning
        return logger
    }

    /// Appends one chunk of checked datasheets to the log, counting what happened to each.
    func record(
        _ checked: [(datasheet: Datasheet, report: DatasheetReport)], ruleSets: [String], service: AuditService,
        counts: inout [DatasheetRecording.Status: Int]
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
        for recording in recordings {
            counts[recording.status, default: 0] += 1
            if recording.status == .notRecorded {
                FileHandle.standardError.write(
                    Data("warning: not recorded: \(recording.gtin): \(recording.reason ?? "refused")\n".utf8))
            }
        }
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
            return JSONOutput.text(report, fallback: "{}")
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
