import Datasheets
import Foundation
import Testing

@testable import Rules

@Suite("Rule engine")
struct EngineTests {
    @Test("the built-in rule sets compile")
    func compiles() throws {
        let engine = try BuiltInRuleSets.engine()
        #expect(engine.rules.count > 60)
    }

    @Test("a rule file error names the file and line")
    func fileError() {
        #expect(throws: RuleFileError.self) {
            _ = try RuleEngine(files: [
                ("x.rules", "set x\nrule X-1\n  title t\n  severity failure\n  reads a\n  check a ==\n")
            ])
        }
    }

    @Test("the sample file: undeclared egg and a bad check digit fail")
    func sample() throws {
        let engine = try BuiltInRuleSets.engine()
        let url = try #require(
            Bundle.module.url(forResource: "sample", withExtension: "jsonl", subdirectory: "Fixtures"))
        let records = try DatasheetImporter.readAll(path: url.path)
        var rules: [String] = []
        for case .datasheet(let sheet, _) in records { rules += engine.check(sheet).findings.map(\.rule) }
        #expect(rules.contains("ALG-003"))
        #expect(rules.contains("GS1-002"))
        #expect(rules.contains("QTY-003"))
    }
}
