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

    @Test("check: a clean master-data datasheet (an organisation, no lot date) exits 0")
    func checkClean() throws {
        let line = """
            {"gs1:gtin":"6412345100071","gs1:productName":"Ground coffee","gs1:regulatedProductName":"Roasted ground coffee","gs1:ingredientStatement":"coffee","gs1:annexVExemptionCode":"COFFEE","gs1:netContent":{"value":500,"unitCode":"GRM"},"gs1:manufacturer":{"@type":"gs1:Organization","gs1:organizationName":{"@value":"Paahtimo Oy","@language":"fi"},"gs1:address":{"gs1:streetAddress":"Paahtimotie 2","gs1:postalCode":"15100","gs1:addressLocality":"Lahti","gs1:addressCountry":{"gs1:countryCode":"FI"}}}}
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
        #expect(findings.map { $0["rule"] as? String } == ["EU-016", "ALG-003", "NUT-025"])
        let keys: Set<String> = [
            "rule", "attribute", "verdict", "verdictLabel", "severity", "message", "observed", "expected", "reference",
        ]
        for finding in findings { #expect(Set(finding.keys) == keys) }
        #expect(failed["verdictLabel"] as? String == "failure")
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

    @Test("check --rules with a rule file that is not UTF-8: one error line naming the file, exit 2")
    func nonUTF8RuleFile() throws {
        let (directory, rules) = try Self.temporaryFile("latin1.rules", "")
        defer { try? FileManager.default.removeItem(at: directory) }
        var bytes = Array("set x\nrule A-1\n  title Ruokaa".utf8)
        bytes.append(0xE4)  // Latin-1 'ä'
        bytes += Array("\n  severity failure\n  reads gtin\n  check present(gtin)\n  message m\n  reference r\n".utf8)
        try Data(bytes).write(to: rules)
        let sheet = directory.appendingPathComponent("s.jsonl")
        try Data(#"{"gs1:gtin":"6411401015090"}"#.utf8).write(to: sheet)
        for arguments in [["check", sheet.path, "--rules", rules.path], ["rules", "lint", rules.path]] {
            let result = try ItemAuditBinary.run(arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(result.stderr)")
            #expect(
                lines.first?.hasPrefix("error: \(rules.path):3:15: the rule file is not UTF-8") == true,
                "\(result.stderr)")
            #expect(!result.stderr.contains("NSCocoaErrorDomain"))
        }
    }

    @Test("a deeply nested or very long check expression is an error with file, line and column, not a crash")
    func deepExpression() throws {
        let deep = String(repeating: "(", count: 7000) + "1" + String(repeating: ")", count: 7000)
        let long = Array(repeating: "1", count: 100_000).joined(separator: " + ")
        for (name, check) in [
            ("deep", deep + " > 0"), ("long", long + " > 0"),
            ("not", String(repeating: "not ", count: 100_000) + "true"),
        ] {
            let (directory, rules) = try Self.temporaryFile(
                "\(name).rules",
                "set x\nrule A-1\n  title t\n  severity failure\n  reads gtin\n  check \(check)\n  message m\n  reference r\n"
            )
            defer { try? FileManager.default.removeItem(at: directory) }
            let lint = try ItemAuditBinary.run(["rules", "lint", rules.path])
            #expect(lint.status == 1, "\(name): \(lint.stderr)")
            #expect(lint.stdout.hasPrefix("\(rules.path):6:"), "\(name): \(lint.stdout.prefix(300))")
            #expect(lint.stdout.contains("nested more than"))
            let sheet = directory.appendingPathComponent("s.jsonl")
            try Data(#"{"gs1:gtin":"6411401015090"}"#.utf8).write(to: sheet)
            let check = try ItemAuditBinary.run(["check", sheet.path, "--rules", rules.path])
            #expect(check.status == 2, "\(name): \(check.stderr.prefix(300))")
            #expect(check.stderr.hasPrefix("error: \(rules.path):6:"))
        }
    }

    @Test("check --record without GTINs names each file and line, and sums up the repeats")
    func recordWithoutGTIN() throws {
        let lines = (1...7).map { #"{"gs1:productName":"Nameless \#($0)"}"# }.joined(separator: "\n") + "\n"
        let (directory, file) = try Self.temporaryFile("nogtin.jsonl", lines)
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = directory.appendingPathComponent("data")
        let result = try ItemAuditBinary.run(["check", file.path, "--record", "--data", data.path, "--quiet"])
        #expect(result.status == 1)
        let warnings = result.stderr.split(separator: "\n").filter { $0.hasPrefix("warning:") }
        #expect(warnings.count == 4, "\(result.stderr)")
        #expect(warnings.first == "warning: \(file.path):1: not recorded: the datasheet has no gtin")
        #expect(!result.stderr.contains("not recorded: :"))
        #expect(warnings.last?.contains("7 datasheets not recorded: the datasheet has no gtin") == true)
        #expect(warnings.last?.contains("\(file.path):1") == true)
    }

    @Test("check runs master-data rules; --subject physical-item adds the lot date and measurements")
    func subjects() throws {
        let line = """
            {"gs1:gtin":"6412345100071","gs1:productName":"Ground coffee","gs1:regulatedProductName":"Roasted ground coffee","gs1:ingredientStatement":"coffee","gs1:annexVExemptionCode":"COFFEE","gs1:netContent":{"value":500,"unitCode":"GRM"},"gs1:manufacturer":"Paahtimo Oy, Lahti"}
            """
        let (directory, file) = try Self.temporaryFile("coffee.jsonl", line + "\n")
        defer { try? FileManager.default.removeItem(at: directory) }
        let master = try ItemAuditBinary.run(["check", file.path, "--format", "json"])
        #expect(master.status == 0, "\(master.stdout)")
        let item = try ItemAuditBinary.run(["check", file.path, "--subject", "physical-item", "--format", "json"])
        #expect(item.status == 1)
        #expect(item.stdout.contains("\"EU-005\""))
    }

    @Test("rules lint says so when a file is clean; rules show gives applicability, reference and examples")
    func lintSummaryAndShow() throws {
        let repository = Self.fixtures.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let lint = try ItemAuditBinary.run(
            ["rules", "lint", "Schemas/rules/nutrition.rules"], currentDirectory: repository)
        #expect(lint.status == 0)
        #expect(lint.stdout.hasPrefix("Schemas/rules/nutrition.rules: "), "\(lint.stdout)")
        #expect(lint.stdout.contains("rules, no problems"))
        let show = try ItemAuditBinary.run(["rules", "show", "EU-005", "--format", "json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any])
        #expect(json["applies"] as? String == "physical-item")
        #expect((json["reference"] as? String)?.contains("Art. 9(1)(f)") == true)
        #expect((json["passes"] as? String)?.contains("examples.txt:") == true)
        #expect((json["fails"] as? String)?.contains("-bestBeforeDate") == true)
        #expect(json["verdict"] as? Int == 3)
    }
}
