import Foundation
import Testing

/// `itemaudit check` and `itemaudit rules` as a user runs them: exit codes, JSON shape, error lines.
@Suite("itemaudit check and rules")
struct CheckAndRulesTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("RulesTests/Fixtures")

    static func temporaryFile(_ name: String, _ text: String) throws -> (URL, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("itemaudit-e2e-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return (directory, file)
    }

    @Test("check: clean datasheets exit 0")
    func checkClean() throws {
        let line = """
            {"gs1:gtin":"6412345100071","gs1:productName":"Ground coffee","gs1:regulatedProductName":"Roasted ground coffee","gs1:ingredientStatement":"coffee","gs1:annexVExemptionCode":"COFFEE","gs1:netContent":{"value":500,"unitCode":"GRM"},"gs1:bestBeforeDate":"2027-01-31","gs1:manufacturer":"Paahtimo Oy"}
            """
        let (directory, file) = try Self.temporaryFile("ok.jsonl", line + "\n")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ItemAuditBinary.run(["check", file.path, "--format", "json"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let summary = json?["summary"] as? [String: Int]
        #expect(summary?["datasheets"] == 1)
        #expect(summary?["passed"] == 1)
    }

    @Test("check: failures exit 1 with the documented JSON shape")
    func checkFailures() throws {
        let result = try ItemAuditBinary.run([
            "check", Self.fixtures.appendingPathComponent("corpus.jsonld").path, "--format", "json",
        ])
        #expect(result.status == 1)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let summary = try #require(json["summary"] as? [String: Int])
        #expect(Set(summary.keys) == ["datasheets", "unreadable", "failed", "warnings", "passed"])
        #expect(summary["datasheets"] == 7)
        #expect(summary["failed"] == 1)
        let sheets = try #require(json["datasheets"] as? [[String: Any]])
        let failed = try #require(sheets.first { ($0["verdict"] as? Int) == 3 })
        #expect(failed["gtin"] as? String == "6412345100064")
        #expect((failed["source"] as? String)?.hasSuffix("corpus.jsonld:386") == true)
        let findings = try #require(failed["findings"] as? [[String: Any]])
        #expect(findings.map { $0["rule"] as? String } == ["ALG-003", "NUT-025"])
        let keys: Set<String> = [
            "rule", "attribute", "verdict", "severity", "message", "observed", "expected", "reference",
        ]
        for finding in findings { #expect(Set(finding.keys) == keys) }
    }

    @Test("check: malformed records are reported on stderr with file and line, the rest is checked")
    func checkMalformed() throws {
        let result = try ItemAuditBinary.run(["check", Self.fixtures.appendingPathComponent("corpus.jsonl").path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("corpus.jsonl:3:"))
        #expect(result.stderr.contains("corpus.jsonl:5: netContent:"))
        #expect(result.stdout.contains("6412345100071"))
    }

    @Test("check: a missing file is one error line and exit 2")
    func checkMissing() throws {
        let result = try ItemAuditBinary.run(["check", "/nonexistent/products.jsonl"])
        #expect(result.status == 2)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("error: ") == true)
    }

    @Test("rules list, show and lint")
    func rules() throws {
        let list = try ItemAuditBinary.run(["rules", "list", "--format", "json"])
        #expect(list.status == 0)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: String]])
        #expect(rows.count >= 90)
        #expect(rows.contains { $0["id"] == "NUT-025" && $0["set"] == "nutrition" })

        let show = try ItemAuditBinary.run(["rules", "show", "ALG-003"])
        #expect(show.status == 0)
        #expect(show.stdout.contains("Art. 21"))
        let unknown = try ItemAuditBinary.run(["rules", "show", "NOPE-1"])
        #expect(unknown.status == 2)

        let (directory, file) = try Self.temporaryFile(
            "bad.rules",
            "set x\nrule A-1\n  title t\n  severity failure\n  reads gtn\n  check present(gtn)\n  message m\n  reference r\n"
        )
        defer { try? FileManager.default.removeItem(at: directory) }
        let lint = try ItemAuditBinary.run(["rules", "lint", file.path])
        #expect(lint.status == 1)
        #expect(lint.stdout.contains("bad.rules:5:"))
        let clean = try ItemAuditBinary.run([
            "rules", "lint",
            Self.fixtures.deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Schemas/rules/nutrition.rules").path,
        ])
        #expect(clean.status == 0, "\(clean.stdout)")
        let missing = try ItemAuditBinary.run(["rules", "lint", "/nonexistent.rules"])
        #expect(missing.status == 2)
        #expect(missing.stderr.split(separator: "\n").count == 1)
    }
}
