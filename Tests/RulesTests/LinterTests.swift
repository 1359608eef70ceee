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
}
