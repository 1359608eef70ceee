import Datasheets

/// How serious a broken rule is: a failure gives verdict 3, a warning verdict 2.
public enum Severity: String, Sendable, Hashable, Codable {
    case failure, warning

    /// The attribute verdict a broken rule of this severity gives.
    public var verdict: Verdict { self == .failure ? .failure : .warning }
}

/// What a rule can be checked on: a trade item's master data (the supplier's datasheet), an inspected
/// physical item (the pack in the inspector's hands, its label, lot dates and measured values), or both.
///
/// A lot's dates and the measured values exist only on a physical item; `check` on supplier datasheets
/// runs only the rules that apply to master data.
public enum Applicability: String, Sendable, Hashable, Codable, CaseIterable {
    case masterData = "master-data"
    case physicalItem = "physical-item"
    case both

    /// Whether a rule with this applicability is checked on `subject`.
    public func covers(_ subject: Subject) -> Bool {
        switch (self, subject) {
        case (.both, _), (.masterData, .masterData), (.physicalItem, .physicalItem): true
        default: false
        }
    }

    /// Words for people: `master data`, `physical item`, `master data and physical item`.
    public var description: String {
        switch self {
        case .masterData: "master data"
        case .physicalItem: "physical item"
        case .both: "master data and physical item"
        }
    }

    /// What is being checked.
    public enum Subject: String, Sendable, Hashable, Codable, CaseIterable {
        /// A supplier's datasheet: what `itemaudit check` reads.
        case masterData = "master-data"
        /// An inspected item: the datasheet as found on the pack, with lot dates and `measured.` values.
        case physicalItem = "physical-item"
    }
}

/// One rule as written in a rule file, compiled.
public struct Rule: Sendable {
    /// The stable id, never reused (`NUT-004`).
    public var id: String
    /// The title.
    public var title: String
    /// The severity.
    public var severity: Severity
    /// What the rule is checked on: master data, a physical item or both.
    public var applies: Applicability
    /// The attribute paths (or list terms) the rule reads.
    public var reads: [String]
    /// A list term to check item by item (`hasAllergen`); nil for a rule on the whole datasheet.
    public var each: String?
    /// The message template: `{observed}`, `{expected}`, `{attribute}`, `{key}` are filled in.
    public var message: String
    /// A legal or standard reference: "EU 1169/2011 Art. 9(1)(k)".
    public var reference: String
    /// The attribute a finding points at; `$` stands for the current item (`hasAllergen[$]`).
    public var attribute: String
    /// The rule set the rule belongs to.
    public var ruleSet: String
    /// Where the rule is written.
    public var location: SourcePosition
    /// The source text of the conditions, for `rules show`.
    public var whenText: String?
    /// The check text.
    public var checkText: String
    /// The observed text.
    public var observedText: String?
    /// The expected text.
    public var expectedText: String?

    var when: Expression?
    var check: Expression
    var observed: Expression?
    var expected: Expression?
}

/// A named group of rules read from one file of `Schemas/rules/`.
public struct RuleSet: Sendable {
    /// The set's name (`nutrition`), used by `--rules`.
    public var name: String
    /// The title.
    public var title: String
    /// The rules.
    public var rules: [Rule]
    /// The file it was read from.
    public var file: String
}
