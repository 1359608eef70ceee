/// The result of validating one attribute, in the codes inspectors and the rule engine share.
///
/// 0 unable to validate, 1 passed, 2 warning, 3 failure (seed thesis 3.1.3 and DESIGN "Attribute verdict").
public enum Verdict: Int, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case unable = 0
    case passed = 1
    case warning = 2
    case failure = 3

    /// The lower-case name used in reports: `unable`, `passed`, `warning`, `failure`.
    public var name: String {
        switch self {
        case .unable: "unable"
        case .passed: "passed"
        case .warning: "warning"
        case .failure: "failure"
        }
    }

    /// See the type documentation.
    public static func < (lhs: Verdict, rhs: Verdict) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Counts of attribute results, rolled up from fields to groups to the whole datasheet.
public struct ResultCount: Sendable, Hashable, Codable {
    /// The passed.
    public var passed = 0
    /// The failed.
    public var failed = 0
    /// The warning.
    public var warning = 0
    /// The unable.
    public var unable = 0
    /// Attributes that have no result yet.
    public var pending = 0

    /// Creates a value from its parts.
    public init(passed: Int = 0, failed: Int = 0, warning: Int = 0, unable: Int = 0, pending: Int = 0) {
        self.passed = passed
        self.failed = failed
        self.warning = warning
        self.unable = unable
        self.pending = pending
    }

    /// Adds one result (`nil` counts as pending).
    public mutating func add(_ verdict: Verdict?) {
        switch verdict {
        case .passed: passed += 1
        case .failure: failed += 1
        case .warning: warning += 1
        case .unable: unable += 1
        case nil: pending += 1
        }
    }

    /// Adds another count to this one.
    public mutating func add(_ other: ResultCount) {
        passed += other.passed
        failed += other.failed
        warning += other.warning
        unable += other.unable
        pending += other.pending
    }

    /// Every attribute counted, with or without a result.
    public var total: Int { passed + failed + warning + unable + pending }

    /// True when every attribute has a result.
    public var isComplete: Bool { pending == 0 }

    /// The worst result counted: failure, then warning, then passed; `nil` while anything is pending.
    public var rollup: Verdict? {
        if failed > 0 { return .failure }
        if warning > 0 { return .warning }
        if pending > 0 { return nil }
        if passed > 0 { return .passed }
        return unable > 0 ? .unable : nil
    }
}
