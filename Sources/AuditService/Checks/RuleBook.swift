import Rules

/// The rule sets the service checks datasheets against: the built-in sets and rule files.
public enum RuleBook {
    /// The built-in rule sets named in `selection` (built-in set names or rule file paths; every
    /// built-in set when empty), compiled.
    /// - Throws: the rule loader's error (naming the file, line and column) when a set does not compile.
    /// It checks the rules that apply to `subject`: a supplier's master data by default, nil for every rule.
    public static func engine(
        selection: [String] = [], subject: Applicability.Subject? = .masterData
    ) throws -> RuleEngine {
        try BuiltInRuleSets.engine(selection: selection, subject: subject)
    }

    /// The text of a rule file; throws a `RuleSelectionError` naming the file, line and column when it
    /// cannot be read or is not UTF-8.
    public static func ruleFileText(_ path: String) throws(RuleSelectionError) -> String {
        try BuiltInRuleSets.ruleFileText(path)
    }

    /// A built-in rule's examples (`Schemas/rules/examples.txt`), a passing one first.
    public static func examples(of rule: String) -> [RuleExample] {
        RuleExamples.examples(of: rule)
    }

    /// The names of the built-in rule sets.
    public static var setNames: [String] { BuiltInRuleSets.names }

    /// The problems in the rule file `text` (syntax, expressions, duplicate ids, unknown attributes).
    public static func lint(_ text: String, file: String) -> [LintProblem] {
        RuleLinter.lint(text, file: file)
    }
}
