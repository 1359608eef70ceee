import Datasheets

/// What one rule found on one datasheet (only broken or unverifiable rules produce findings).
public struct Finding: Sendable, Hashable, Codable {
    /// The rule id.
    public var rule: String
    /// The attribute path the finding points at.
    public var attribute: String
    /// The verdict.
    public var verdict: Verdict
    /// `failure`, `warning`, or `unable` when the rule could not be evaluated.
    public var severity: String
    /// The message.
    public var message: String
    /// The observed.
    public var observed: String
    /// The expected.
    public var expected: String
    /// The reference.
    public var reference: String

    /// Creates a value from its parts.
    public init(
        rule: String, attribute: String, verdict: Verdict, severity: String, message: String, observed: String,
        expected: String, reference: String
    ) {
        self.rule = rule
        self.attribute = attribute
        self.verdict = verdict
        self.severity = severity
        self.message = message
        self.observed = observed
        self.expected = expected
        self.reference = reference
    }
}

/// The result of checking one datasheet: its findings and the counts of rules by outcome.
public struct DatasheetReport: Sendable, Hashable, Codable {
    /// The GTIN as declared (empty when absent).
    public var gtin: String
    /// `file:line`, when the datasheet came from a file.
    public var source: String
    /// 3 when any failure, 2 when any warning, else 1.
    public var verdict: Verdict
    /// Failures and warnings, in rule order.
    public var findings: [Finding]
    /// Rules that applied and passed.
    public var passedRules: Int
    /// Rules whose applicability condition did not hold.
    public var notApplicableRules: Int
    /// Rules that applied but could not be evaluated (an attribute missing or unreadable).
    public var unableRules: Int
    /// For each attribute a rule read: the worst verdict of the applicable rules that read it.
    public var attributeVerdicts: [String: Verdict]

    /// The findings as one event-ready value per finding: what a `--record` writes to the log.
    public var failures: [Finding] { findings.filter { $0.verdict == .failure } }

    /// Records the rule verdicts on the datasheet's attributes (attributes no rule read stay as they are).
    public func apply(to datasheet: inout Datasheet) {
        for index in datasheet.attributes.indices {
            if let verdict = attributeVerdicts[datasheet.attributes[index].path] {
                datasheet.attributes[index].result = verdict
            }
        }
    }
}

/// Totals over every checked datasheet, as in `{"summary": {...}}`.
public struct CheckSummary: Sendable, Hashable, Codable {
    /// The datasheets.
    public var datasheets = 0
    /// Datasheets with at least one failure.
    public var failed = 0
    /// Datasheets with warnings but no failure.
    public var warnings = 0
    /// Datasheets with neither.
    public var passed = 0

    /// Creates a value from its parts.
    public init() {}

    /// Counts one more datasheet.
    public mutating func add(_ report: DatasheetReport) {
        datasheets += 1
        switch report.verdict {
        case .failure: failed += 1
        case .warning: warnings += 1
        default: passed += 1
        }
    }
}
