import Foundation
import Testing

@testable import Rules

@Suite("Rule file linter")
struct LinterTests {
    @Test("the built-in rule files lint clean")
    func builtInsClean() {
        #expect(RuleLinter.lint(BuiltInRuleSets.prelude, file: "prelude.rules").isEmpty)
        for (file, text) in BuiltInRuleSets.files {
            #expect(RuleLinter.lint(text, file: file).map(\.description) == [])
        }
    }

    @Test("expression errors, duplicate ids and unknown attributes are all reported with line and column")
    func problems() {
        let text = """
            set x
            rule A-1
              title t
              severity failure
              reads fatPerNutrientBasis
              check present(fatPerNutrientBasis) and
              message m
              reference r
            rule A-1
              title t
              severity failure
              reads gtin
              check present(gtin)
              message m
              reference r
            rule A-2
              title t
              severity failure
              reads gtn
              check present(gtn)
              message m
              reference r
            """
        let problems = RuleLinter.lint(text, file: "x.rules")
        #expect(problems.map(\.kind) == ["expression", "duplicate-id", "unknown-attribute"])
        #expect(problems.map(\.position.line) == [6, 9, 19])
        #expect(problems[0].position.column > 1)
        #expect(problems[0].description.hasPrefix("x.rules:6:"))
    }

    @Test("a syntax error stops the lint at its line")
    func syntax() {
        let problems = RuleLinter.lint("set x\nbogus line\n", file: "y.rules")
        #expect(problems.count == 1)
        #expect(problems.first?.kind == "syntax")
        #expect(problems.first?.position.line == 2)
    }

    @Test("an unknown key and an unknown placeholder are problems, not text glued into the message")
    func unknownKeyAndPlaceholder() throws {
        let text = """
            set x
            rule A-1
              title t
              severity failure
              reads gtin
              check present(gtin)
              message GTIN {nosuch} is wrong
              bogusfield 1
              reference r
            rule A-2
              title t
              severity warning
              reads gtin
              check present(gtin) and
              message GTIN {key} is wrong
              reference r
              applies sometimes
            """
        let problems = RuleLinter.lint(text, file: "k.rules")
        #expect(problems.map(\.position.line) == [7, 8, 14, 15, 17], "\(problems.map(\.description))")
        #expect(problems[0].description.hasPrefix("k.rules:7:16:"), "\(problems[0])")
        #expect(problems[0].message.contains("{nosuch}"))
        #expect(problems[1].message.contains("unknown key 'bogusfield'"))
        #expect(problems[1].position.column == 3)
        #expect(problems[3].message.contains("{key} needs an 'each' rule"))
        #expect(problems[4].message.contains("applies is"))
        #expect(throws: RuleFileError.self) { _ = try RuleEngine(files: [("k.rules", text)]) }
    }

    @Test("a value continues on a line indented deeper than its key")
    func continuation() throws {
        let text = """
            set x
            rule A-1
              title t
              severity failure
              reads gtin
              check present(gtin)
                    and gtinValid(gtin)
              message m
              reference r
            """
        #expect(RuleLinter.lint(text, file: "c.rules").isEmpty)
        let engine = try RuleEngine(files: [("c.rules", text)])
        #expect(engine.rules.first?.checkText == "present(gtin) and gtinValid(gtin)")
    }
}
