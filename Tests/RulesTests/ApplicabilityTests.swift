import Datasheets
import Testing

@testable import Rules

/// Master data is not a label: `check` on supplier datasheets runs only the rules that apply to master
/// data; a lot's dates and measured values are checked on an inspected physical item.
@Suite("Rules applying to master data or to a physical item")
struct ApplicabilityTests {
    static let master = RuleExamples.all.first { $0.base == "master" && $0.edits.isEmpty }?.datasheet

    @Test("every built-in rule states what it applies to; the lot and measurement rules apply to the item only")
    func decided() throws {
        let engine = try BuiltInRuleSets.engine(subject: nil)
        let physical = Set(engine.rules.filter { $0.applies == .physicalItem }.map(\.id))
        let expected: Set<String> = [
            "EU-005", "EU-012", "QTY-009", "DAT-005", "NUT-030", "NUT-031", "NUT-032", "NUT-033", "NUT-034", "NUT-035",
            "NUT-036", "NUT-037", "NUT-038", "NUT-039",
        ]
        #expect(physical == expected)
        #expect(!engine.rules.contains { $0.applies == .masterData })
        for rule in engine.rules where rule.applies == .physicalItem {
            #expect(rule.whenText != nil || rule.checkText.contains("measured") || rule.id == "EU-005", "\(rule.id)")
        }
    }

    @Test("a complete master-data datasheet without a best before date passes the master-data check")
    func masterDataPasses() throws {
        let sheet = try #require(Self.master)
        #expect(sheet["bestBeforeDate"] == nil)
        let report = try BuiltInRuleSets.engine().check(sheet)
        #expect(report.findings.isEmpty, "\(report.findings.map { "\($0.rule): \($0.message)" })")
        let item = try BuiltInRuleSets.engine(subject: .physicalItem).check(sheet)
        #expect(item.findings.map(\.rule) == ["EU-005"])
        #expect(item.findings.first?.verdict == .failure)
    }

    @Test("the engine for master data never evaluates a physical-item rule")
    func filtered() throws {
        let engine = try BuiltInRuleSets.engine()
        let sheet = try #require(Self.master)
        let evaluated = Set(engine.outcomes(sheet).map(\.rule))
        #expect(!evaluated.contains("EU-005") && !evaluated.contains("NUT-030"))
        #expect(evaluated.contains("EU-007"))
        #expect(engine.rules.contains { $0.id == "EU-005" }, "rules lists every rule")
    }
}
