import Rules

/// The rule sets the service checks datasheets against: the built-in sets and rule files.
public enum RuleBook {
    /// The built-in rule sets named in `selection` (built-in set names or rule file paths; every
    /// built-in set when empty), compiled.
    /// - Throws: the rule loader's error (naming the file, line and column) when a set does not compile.
    public static func engine(selection: [String] = []) throws -> RuleEngine {
        try BuiltInRuleSets.engine(selection: selection)
    }

    /// The names of the built-in rule sets.
    public static var setNames: [String] { BuiltInRuleSets.names }

    /// The problems in the rule file `text` (syntax, expressions, duplicate ids, unknown attributes).
    public static func lint(_ text: String, file: String) -> [LintProblem] {
        RuleLinter.lint(text, file: file)
    }
}
