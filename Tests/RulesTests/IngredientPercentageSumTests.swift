import Datasheets
import Testing

@testable import Rules

/// `percentageSum(text)`: the top-level ingredients' percentages added up (EU-018's total).
@Suite("Ingredient percentages added up")
struct IngredientPercentageSumTests {
    static func sum(_ text: String) -> Double? {
        Builtin.percentageSum.apply([.text(Substring(text))]).number
    }

    @Test("top-level percentages add up; a compound ingredient's parts do not")
    func topLevel() {
        #expect(Self.sum("oat flakes 40%, wheat flour 45,5 %, sugar") == 85.5)
        #expect(Self.sum("milk chocolate 60% (sugar, cocoa butter 30%, MILK powder 25%), oats 40%") == 100)
        #expect(Self.sum("pork [meat 90%, fat 20%], salt") == nil)
        #expect(Self.sum("sugar, salt") == nil)
    }

    @Test("the list ends at its first sentence; decimal points do not end it")
    func firstSentence() {
        #expect(Self.sum("cocoa mass 70%, sugar 1.5%. Cocoa solids 70 % minimum.") == 71.5)
        #expect(Self.sum("Kaurajauho 60 %, vesi, VEHNÄJAUHO, hiiva, suola.") == 60)
    }

    @Test("the rule machine's byte-level sum agrees with Builtin.apply")
    func machineAgrees() throws {
        let text = "set t\ntitle t\nrule T-1\n  title t\n  severity failure\n  reads x\n  check true\n  message m\n  observed percentageSum(x)\n  reference r\n"
        let engine = try RuleEngine(files: [("t.rules", text)])
        let machine = Machine(engine.program, slotCount: engine.slotCount)
        let rule = try #require(engine.plan.last)
        for input in ["a 40%, b 45,5 %, c", "x 60% (y 30%), z 40%. W 70 %.", "none", "10 %|20 %", "ä 5 %, ö 6%"] {
            machine.load(Datasheet(flat: [("x", input)]))
            #expect(machine.value(machine.evaluate(rule.observed)) == Builtin.percentageSum.apply([.text(Substring(input))]))
        }
    }
}
