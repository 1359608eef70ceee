import Datasheets

/// One problem `RuleLinter` found in a rule file, at `file:line:column`.
public struct LintProblem: Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem: `syntax`, `expression`, `duplicate-id`, `unknown-attribute`, `missing-set`.
    public var kind: String
    /// Where it is.
    public var position: SourcePosition
    /// What is wrong and what to do.
    public var message: String

    /// `file:line:column: message`.
    public var description: String { "\(position): \(message)" }
}

/// Checks a rule file without loading it: syntax, expressions (against the built-in prelude), ids used
/// twice in the file, and attributes that neither the GS1 Web Vocabulary terms this project knows nor
/// the built-in rules use. Reports every problem it can, not just the first.
public enum RuleLinter {
    /// The attribute terms a rule may read: the attribute catalogue's (`Schemas/attributes/`), so every
    /// attribute a rule reads has a name, a group and an instruction for the inspector.
    public static var knownTerms: Set<String> { AttributeCatalog.terms }

    /// Lints the text of one rule file named `file` (the name is only used in positions): every
    /// problem of every line and rule, not just the first.
    public static func lint(_ text: String, file: String) -> [LintProblem] {
        let raw = RuleFileParser.read(text, file: file)
        var problems = raw.problems.map { LintProblem(kind: "syntax", position: $0.position, message: $0.message) }
        var compiler = RuleCompiler()
        // A prelude (definitions only, no set) is linted on its own; a rule set sees the built-in prelude.
        let isPrelude = raw.name == nil && raw.rules.isEmpty
        if !isPrelude {
            do {
                _ = try compiler.compile(BuiltInRuleSets.prelude, file: BuiltInRuleSets.preludeFile)
            } catch {
                problems.append(LintProblem(kind: "expression", position: error.position, message: error.message))
            }
        }
        if raw.name == nil, !raw.rules.isEmpty {
            problems.append(
                LintProblem(
                    kind: "missing-set", position: SourcePosition(file: file, line: 1, column: 1),
                    message: "the file has rules but no 'set NAME' line; add one at the top"))
        }
        for definition in raw.definitions {
            do { try compiler.define(definition) } catch {
                problems.append(LintProblem(kind: "expression", position: error.position, message: error.message))
            }
        }
        var firstUse: [String: SourcePosition] = [:]
        let known = knownTerms
        for rule in raw.rules {
            if let earlier = firstUse[rule.id] {
                problems.append(
                    LintProblem(
                        kind: "duplicate-id", position: rule.position,
                        message: "rule id \(rule.id) is already used at \(earlier); give this rule a new id"))
                continue
            }
            firstUse[rule.id] = rule.position
            let slotsBefore = compiler.slotPaths.count
            var ruleProblems: [RuleFileError] = []
            _ = compiler.compile(rule, set: raw.name ?? "", problems: &ruleProblems)
            problems += ruleProblems.map {
                LintProblem(
                    kind: $0.message.hasPrefix("unknown placeholder") ? "placeholder" : "expression",
                    position: $0.position, message: $0.message)
            }
            var paths = Array(compiler.slotPaths[slotsBefore...])
            let readsEntry = rule.entries["reads"]
            for read in (readsEntry?.value ?? "").split(separator: ",") {
                paths.append(read.trimmingCharacters(in: " "))
            }
            var reported: Set<String> = []
            for path in paths where !reported.contains(path) {
                var term = String(AttributePath(path).term)
                // `measured.` values come from an inspection, `children.` sums from the checker (ChildNetContents).
                if term == "measured" || term == "children", let member = AttributePath(path).member {
                    term = String(AttributePath(String(member)).term)
                }
                guard !known.contains(term) else { continue }
                reported.insert(path)
                problems.append(
                    LintProblem(
                        kind: "unknown-attribute", position: readsEntry?.position ?? rule.position,
                        message:
                            "rule \(rule.id) reads '\(path)', which is not a known GS1 Web Vocabulary term; check the spelling"
                    ))
            }
        }
        return problems.sorted { ($0.position.line, $0.position.column) < ($1.position.line, $1.position.column) }
    }
}
