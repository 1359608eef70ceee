/// What one rule made of one datasheet (or of one list item, for a rule with `each`).
public enum RuleOutcome: String, Sendable, Hashable, Codable {
    /// The rule's `when` condition did not hold (or could not be evaluated): verdict 0 is not recorded.
    case notApplicable
    /// The rule applied and its check held.
    case passed
    /// The rule applied and its check failed: a finding with the rule's severity.
    case broken
    /// The rule applied but its check could not be evaluated (an attribute missing or unreadable).
    case unable
}

/// One rule's outcome on one datasheet, as `RuleEngine.outcomes(_:)` lists them.
public struct RuleResult: Sendable, Hashable, Codable {
    /// The rule id.
    public var rule: String
    /// The list item key (`AM`) for a rule with `each`; nil otherwise.
    public var key: String?
    /// What the rule made of it.
    public var outcome: RuleOutcome

    /// Creates a result.
    public init(rule: String, key: String?, outcome: RuleOutcome) {
        self.rule = rule
        self.key = key
        self.outcome = outcome
    }
}
