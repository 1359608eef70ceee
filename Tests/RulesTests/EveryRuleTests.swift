import Datasheets
import Testing

@testable import Rules

/// Every built-in rule has a datasheet it passes on and one it fails on (`Fixtures/examples.txt`).
@Suite("Every rule passes and fails")
struct EveryRuleTests {
    static let engine: RuleEngine? = try? BuiltInRuleSets.engine(subject: nil)

    @Test("each case gives the expected outcome", arguments: RuleCase.all)
    func ruleCase(_ ruleCase: RuleCase) throws {
        let engine = try #require(Self.engine)
        let results = engine.outcomes(ruleCase.datasheet).filter { $0.rule == ruleCase.rule }
        #expect(!results.isEmpty, "no rule \(ruleCase.rule)")
        let outcomes = results.map(\.outcome)
        if ruleCase.passes {
            #expect(outcomes.contains(.passed), "\(ruleCase.rule) did not apply: \(outcomes)")
            #expect(!outcomes.contains(.broken) && !outcomes.contains(.unable), "\(ruleCase.rule): \(outcomes)")
        } else {
            #expect(outcomes.contains(.broken), "\(ruleCase.rule) did not break: \(outcomes)")
            let findings = engine.check(ruleCase.datasheet).findings.filter { $0.rule == ruleCase.rule }
            #expect(!findings.isEmpty)
            for finding in findings {
                #expect(!finding.message.contains("{"), "unfilled template in \(finding.message)")
                #expect(!finding.reference.isEmpty)
                #expect(!finding.observed.isEmpty && !finding.expected.isEmpty, "\(finding)")
                #expect(!finding.expected.contains("{"), "unfilled template in \(finding.expected)")
            }
        }
    }

    @Test("every built-in rule id has a passing and a failing case")
    func coverage() throws {
        let engine = try #require(Self.engine)
        let ids = engine.rules.map(\.id)
        let passing = Set(RuleCase.all.filter(\.passes).map(\.rule))
        let failing = Set(RuleCase.all.filter { !$0.passes }.map(\.rule))
        #expect(ids.count >= 90)
        for id in ids {
            #expect(passing.contains(id), "rule \(id) has no passing case in examples.txt")
            #expect(failing.contains(id), "rule \(id) has no failing case in examples.txt")
        }
        let unknown = Set(RuleCase.all.map(\.rule)).subtracting(ids)
        #expect(unknown.isEmpty, "cases for unknown rules: \(unknown.sorted())")
    }

    @Test("the four base datasheets raise no failure")
    func basesAreClean() throws {
        let engine = try #require(Self.engine)
        let baseCases = RuleCase.all.filter { ruleCase in
            ruleCase.passes && ["GS1-001", "GS1-008", "EU-010", "NUT-009"].contains(ruleCase.rule)
        }
        #expect(baseCases.count == 4)
        for ruleCase in baseCases {
            let report = engine.check(ruleCase.datasheet)
            #expect(report.findings.isEmpty, "\(ruleCase.testDescription): \(report.findings.map(\.message))")
        }
    }

    @Test("an impossible nutrient value is a failure on its own attribute, with units in the evidence")
    func impossibleValue() throws {
        let engine = try #require(Self.engine)
        let food = try #require(RuleCase.all.first { $0.rule == "NUT-040" && $0.passes }).datasheet
        var attributes = food.attributes
        let fat = try #require(attributes.firstIndex { $0.path == "fatPerNutrientBasis" })
        attributes[fat].value = "-3 GRM"
        let report = engine.check(Datasheet(attributes: attributes))
        let finding = try #require(report.findings.first { $0.rule == "NUT-040" })
        #expect(finding.attribute == "fatPerNutrientBasis")
        #expect(finding.verdict == .failure)
        #expect(finding.observed == "-3 g")
        #expect(finding.expected == "0 to 100 g per 100 GRM")
        #expect(!report.findings.contains { $0.rule.hasPrefix("PLA-") && $0.attribute == "fatPerNutrientBasis" })
    }

    @Test("PLA-008 names the nutrients it compared and leaves skimmed milk alone")
    func sameValues() throws {
        let engine = try #require(Self.engine)
        let failing = try #require(RuleCase.all.first { $0.rule == "PLA-008" && !$0.passes }).datasheet
        let finding = try #require(engine.check(failing).findings.first { $0.rule == "PLA-008" })
        #expect(finding.observed == "fat, saturates and protein: 8")
        #expect(finding.message.contains("fat, saturates and protein: 8 g per 100 g"))
    }

    @Test("wine vinegar is not an alcoholic drink (EU-010 does not apply)")
    func vinegar() throws {
        let engine = try #require(Self.engine)
        let beer = try #require(RuleCase.all.first { $0.rule == "EU-010" && !$0.passes }).datasheet
        var attributes = beer.attributes.filter { $0.path != "productName" && $0.path != "regulatedProductName" }
        attributes.append(Attribute(path: "productName", value: "Red wine vinegar"))
        let outcomes = engine.outcomes(Datasheet(attributes: attributes)).filter { $0.rule == "EU-010" }
        #expect(outcomes.map(\.outcome) == [.notApplicable])
    }

    @Test("storage conditions: a frozen or fresh food needs them, a refreshing drink does not")
    func storage() throws {
        let engine = try #require(Self.engine)
        let juice = try #require(
            RuleCase.all.first { $0.rule == "PLA-008" && $0.datasheet["productName"] == "Orange juice" })
        func outcome(_ name: String) -> [RuleOutcome] {
            var attributes = juice.datasheet.attributes.filter { $0.path != "productName" }
            attributes.append(Attribute(path: "productName", value: name))
            return engine.outcomes(Datasheet(attributes: attributes)).filter { $0.rule == "EU-006" }.map(\.outcome)
        }
        #expect(outcome("Refreshing orange drink") == [.notApplicable])
        #expect(outcome("Fresh orange juice") == [.broken])
        #expect(outcome("Frozen orange juice concentrate") == [.broken])
    }
}
