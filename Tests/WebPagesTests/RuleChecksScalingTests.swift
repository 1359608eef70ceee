import AuditService
import Foundation
import Testing

@testable import WebPages

/// The rule-check page over large uploads: work and size grow with the file at most linearly,
/// and the page shows the first findings while its totals count them all.
@Suite("Rule checks of large files")
struct RuleChecksScalingTests {
    /// `count` datasheets that each break the same few rules (distinct GTINs, most with a bad check digit).
    static func reports(_ count: Int) throws -> [DatasheetReport] {
        var body = ""
        for index in 0..<count {
            let gtin = "64123" + String(format: "%08d", index)
            body +=
                #"{"gs1:gtin":"\#(gtin)","gs1:productName":"Ground coffee","gs1:netContent":{"value":500,"unitCode":"GRM"}}"#
            body += "\n"
        }
        let engine = try RuleBook.engine(subject: .masterData)
        return try DatasheetUpload.check(Array(body.utf8), format: .jsonl, engine: engine).items.map(\.report)
    }

    @Test("the by-rule tally counts datasheets per rule without keeping a key per datasheet")
    func tallyKeepsNoKeyPerDatasheet() throws {
        let reports = try Self.reports(500)
        var tally = RuleTally()
        for (index, report) in reports.enumerated() { tally.add(report, index: index) }
        // Each rule's count of datasheets is the number of reports with a finding of that rule.
        for (rule, total) in tally.totals {
            let expected = reports.filter { $0.findings.contains { $0.rule == rule } }.count
            #expect(total.datasheetCount == expected, "\(rule)")
        }
        // A set of datasheet keys per rule, copied out of the dictionary and back for each finding,
        // made the page's work grow with datasheets squared: a rule's total holds no collection.
        for total in tally.totals.values {
            let collections = Mirror(reflecting: total).children.filter {
                !($0.value is String) && $0.value is any Collection
            }
            #expect(collections.isEmpty, "\(collections.map(\.label))")
        }
    }

    @Test("an upload keeps only the reports the page shows, and the page's totals still count every datasheet")
    func uploadKeepsWhatThePageShows() throws {
        let count = 3000
        var body = ""
        for index in 0..<count {
            body +=
                #"{"gs1:gtin":"64123\#(String(format: "%08d", index))","gs1:productName":"Ground coffee"}"#
                + "\n"
        }
        let input = try RuleCheckInput.check(upload: Array(body.utf8), fileName: "large.jsonl")
        var findingCount = 0
        _ = try DatasheetUpload.scan(Array(body.utf8), format: .jsonl, engine: try RuleBook.engine(selection: [])) {
            _, report in
            findingCount += report.findings.count
            return true
        }
        #expect(findingCount > RuleChecksPage.findingsShown)
        // Every report kept made the page's memory grow with the file (each with all its findings).
        #expect(input.reports.count <= RuleChecksPage.findingsShown, "\(input.reports.count) reports kept")
        let content = RuleChecksPage(checks: input, links: .server(basePath: "")).content()
        #expect(content.facts.first { $0.label == "Datasheets" }?.value == String(count))
        let findings = try #require(content.sections.first { $0.heading == "Findings and evidence" })
        #expect(findings.table?.rows.count == RuleChecksPage.findingsShown)
        #expect(findings.note?.contains("of \(findingCount) findings") == true, "\(findings.note ?? "")")
        let byRule = try #require(content.sections.first { $0.heading == "By rule" }?.table)
        let datasheetsColumn = try #require(byRule.columns.firstIndex { $0.key == "datasheets" })
        #expect(byRule.rows.contains { $0[datasheetsColumn].text == String(count) }, "a rule every datasheet breaks")
    }
}
