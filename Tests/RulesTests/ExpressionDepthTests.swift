import Testing

@testable import Rules

/// Hostile rule expressions (found by a mutation fuzzer): deep nesting and long flat chains are refused
/// with a position instead of overflowing the stack of the parser, the compiler or the evaluator.
@Suite("Expression depth limit")
struct ExpressionDepthTests {
    static func ruleFile(check: String) -> String {
        "set deep\nrule D-1\n  title t\n  severity failure\n  reads gtin\n  check \(check)\n  message m\n  reference r\n"
    }

    static let hostile: [(String, String)] = [
        ("parentheses", String(repeating: "(", count: 7000) + "1" + String(repeating: ")", count: 7000) + " > 0"),
        ("sum chain", Array(repeating: "1", count: 100_000).joined(separator: " + ") + " > 0"),
        ("not chain", String(repeating: "not ", count: 100_000) + "true"),
        ("minus chain", String(repeating: "- ", count: 100_000) + "1 > 0"),
        ("and chain", Array(repeating: "present(gtin)", count: 50_000).joined(separator: " and ")),
        ("call nesting", String(repeating: "abs(", count: 5000) + "1" + String(repeating: ")", count: 5000) + " > 0"),
        ("list nesting", "1 in " + String(repeating: "[", count: 5000) + "1" + String(repeating: "]", count: 5000)),
    ]

    @Test("deep or long expressions are refused with file, line and column", arguments: hostile.map(\.0))
    func refused(_ name: String) throws {
        let check = try #require(Self.hostile.first { $0.0 == name }?.1)
        let text = Self.ruleFile(check: check)
        do {
            _ = try RuleEngine(files: [("deep.rules", text)])
            Issue.record("\(name) was accepted")
        } catch {
            #expect(error.position.file == "deep.rules")
            #expect(error.position.line == 6)
            #expect(error.position.column > 1)
            #expect(error.message.contains("nested more than"), "\(error.message)")
        }
        let problems = RuleLinter.lint(text, file: "deep.rules")
        #expect(problems.count == 1)
        #expect(problems.first?.description.hasPrefix("deep.rules:6:") == true)
    }

    @Test("a chain of definitions each using the last is bounded too")
    func definitionChain() {
        var text = "define D0 = 1\n"
        for index in 1...1000 { text += "define D\(index) = D\(index - 1) + 1\n" }
        text += Self.ruleFile(check: "D1000 > 0")
        #expect(throws: RuleFileError.self) { _ = try RuleEngine(files: [("chain.rules", text)]) }
        let problems = RuleLinter.lint(text, file: "chain.rules")
        #expect(!problems.isEmpty)
        #expect(problems.allSatisfy { $0.message.contains("nested more than") || $0.message.contains("not defined") })
    }

    @Test("the built-in rules stay far below the limit, and a moderately deep expression still compiles")
    func builtInsCompile() throws {
        _ = try BuiltInRuleSets.engine(subject: nil)
        let nested = String(repeating: "(", count: 50) + "1" + String(repeating: ")", count: 50) + " > 0"
        let engine = try RuleEngine(files: [("ok.rules", Self.ruleFile(check: nested))])
        #expect(engine.rules.count == 1)
    }
}
