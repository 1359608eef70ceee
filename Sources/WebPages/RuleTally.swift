import AuditService

/// Findings counted by rule over a datasheet file, for the rule-check page's "By rule" section.
///
/// Reports come in file order, so a rule's datasheets are counted by remembering the last report
/// that had its finding: no per-datasheet key is kept, and nothing is copied per finding (a set of
/// keys copied out of the dictionary and back made the page grow with the square of the file).
struct RuleTally {
    struct Total {
        var rule: String
        var reference: String
        var failures = 0
        var warnings = 0
        var datasheetCount = 0
        var example = ""
        /// The index of the last report counted in `datasheetCount`.
        fileprivate var lastReport = -1
    }

    private(set) var totals: [String: Total] = [:]

    /// Counts `report`'s findings; `index` is the report's place in the file (increasing).
    mutating func add(_ report: DatasheetReport, index: Int) {
        for finding in report.findings {
            // Mutated in place through the subscript: the total is never copied out and back.
            totals[finding.rule, default: Total(rule: finding.rule, reference: finding.reference)].count(
                severity: finding.severity, message: finding.message, report: index)
        }
    }
}

extension RuleTally.Total {
    fileprivate mutating func count(severity: String, message: String, report index: Int) {
        if severity == "failure" {
            failures += 1
        } else if severity == "warning" {
            warnings += 1
        }
        if lastReport != index {
            lastReport = index
            datasheetCount += 1
        }
        if example.isEmpty { example = message }
    }
}
