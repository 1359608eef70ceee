import Datasheets
import Logging

/// Checks datasheets against compiled rule sets.
///
/// Build one engine (compiling is the slow part) and check any number of datasheets with it; the
/// engine is immutable and `Sendable`, so threads may share it.
public struct RuleEngine: Sendable {
    /// The loaded sets, in load order.
    public let ruleSets: [RuleSet]
    let slotIndex: [String: Int]
    let slotCount: Int
    let definitions: [Expression]
    let definitionReadsItem: [Bool]
    let eachTerms: [String]
    /// Every rule, flattened, with only what evaluation needs (copying a `Rule` would retain all its text).
    let plan: [PlannedRule]
    /// Every rule, flattened, for findings.
    let flatRules: [Rule]

    /// What evaluating one rule needs.
    struct PlannedRule {
        var index: Int
        var eachTerm: Int?
        var when: Expression?
        var check: Expression
    }

    /// Every rule of every set, in order.
    public var rules: [Rule] { ruleSets.flatMap(\.rules) }

    /// Compiles rule files given as `(file name, text)`; the prelude of definitions is loaded first.
    /// Throws the first `RuleFileError`, which names the file and line.
    public init(files: [(file: String, text: String)], logger: Logger? = nil) throws(RuleFileError) {
        var compiler = RuleCompiler()
        var sets: [RuleSet] = []
        for (file, text) in [(BuiltInRuleSets.preludeFile, BuiltInRuleSets.prelude)] + files {
            let set = try compiler.compile(text, file: file)
            if !set.rules.isEmpty { sets.append(set) }
        }
        ruleSets = sets
        slotIndex = compiler.slotIndex
        slotCount = compiler.slotPaths.count
        definitions = compiler.definitions
        definitionReadsItem = compiler.definitionReadsItem
        let terms = Array(Set(sets.flatMap { $0.rules.compactMap(\.each) })).sorted()
        eachTerms = terms
        flatRules = sets.flatMap(\.rules)
        plan = flatRules.enumerated().map { index, rule in
            PlannedRule(
                index: index, eachTerm: rule.each.flatMap { terms.firstIndex(of: $0) }, when: rule.when,
                check: rule.check)
        }
        logger?.info("compiled \(sets.count) rule sets, \(sets.reduce(0) { $0 + $1.rules.count }) rules")
    }

    /// Options for one check.
    public struct Options: Sendable {
        /// Also work out a verdict per attribute (`DatasheetReport.attributeVerdicts`).
        public var attributeVerdicts = false
        /// Also report rules that applied but could not be evaluated, as findings with verdict 0.
        public var reportUnable = false

        /// Creates a value from its parts.
        public init(attributeVerdicts: Bool = false, reportUnable: Bool = false) {
            self.attributeVerdicts = attributeVerdicts
            self.reportUnable = reportUnable
        }
    }

    /// Checks one datasheet against every loaded rule.
    public func check(_ datasheet: Datasheet, options: Options = Options()) -> DatasheetReport {
        var report = DatasheetReport(
            gtin: datasheet.gtin ?? "", source: datasheet.source?.description ?? "", verdict: .passed, findings: [],
            passedRules: 0, notApplicableRules: 0, unableRules: 0, attributeVerdicts: [:])
        forEachOutcome(datasheet) { rule, key, outcome, context in
            record(rule, key: key, outcome, &context, into: &report, options)
        }
        return report
    }

    /// What every rule made of one datasheet, one entry per rule (per list item for an `each` rule):
    /// not applicable, passed, broken or unable. For tests and `rules show`; `check` is the fast path.
    public func outcomes(_ datasheet: Datasheet) -> [RuleResult] {
        var results: [RuleResult] = []
        forEachOutcome(datasheet) { rule, key, outcome, _ in
            results.append(RuleResult(rule: rule.id, key: key.map(String.init), outcome: outcome))
        }
        return results
    }

    /// Loads the datasheet's facts and evaluates every rule, calling `body` with each outcome.
    private func forEachOutcome(
        _ datasheet: Datasheet,
        _ body: (Rule, Substring?, RuleOutcome, inout EvaluationContext) -> Void
    ) {
        var context = EvaluationContext(
            facts: [Substring?](repeating: nil, count: slotCount),
            definitionCache: [Value?](repeating: nil, count: definitions.count),
            definitions: definitions, definitionReadsItem: definitionReadsItem)
        var items: [[(key: Substring, members: [(name: Substring, value: Substring)])]] = Array(
            repeating: [], count: eachTerms.count)
        for attribute in datasheet.attributes {
            let path = attribute.path
            if let slot = slotIndex[path] {
                context.facts[slot] = Substring(attribute.value)
            } else if let at = path.utf8.firstIndex(of: UInt8(ascii: "@")), let slot = slotIndex[String(path[..<at])],
                context.facts[slot] == nil
            {
                context.facts[slot] = Substring(attribute.value)
            }
            if !eachTerms.isEmpty, let open = path.utf8.firstIndex(of: UInt8(ascii: "[")),
                let close = path.utf8.firstIndex(of: UInt8(ascii: "]"))
            {
                let term = path[..<open]
                guard let termIndex = eachTerms.firstIndex(where: { $0 == term }) else { continue }
                let key = path[path.index(after: open)..<close]
                let rest = path[path.index(after: close)...]
                let member = rest.first == "." ? rest.dropFirst() : rest
                if let itemIndex = items[termIndex].firstIndex(where: { $0.key == key }) {
                    items[termIndex][itemIndex].members.append((member, Substring(attribute.value)))
                } else {
                    items[termIndex].append((key, [(member, Substring(attribute.value))]))
                }
            }
        }
        for planned in plan {
            if let termIndex = planned.eachTerm {
                if items[termIndex].isEmpty {
                    body(flatRules[planned.index], nil, .notApplicable, &context)
                    continue
                }
                for item in items[termIndex] {
                    context.itemKey = item.key
                    context.itemMembers = item.members
                    let outcome = outcome(when: planned.when, check: planned.check, &context)
                    body(flatRules[planned.index], item.key, outcome, &context)
                }
                context.itemKey = nil
                context.itemMembers = []
            } else {
                let outcome = outcome(when: planned.when, check: planned.check, &context)
                body(flatRules[planned.index], nil, outcome, &context)
            }
        }
    }

    private func outcome(when: Expression?, check: Expression, _ context: inout EvaluationContext) -> RuleOutcome {
        if let when, when.evaluate(&context).truth != true { return .notApplicable }
        switch check.evaluate(&context).truth {
        case true?: return .passed
        case false?: return .broken
        case nil: return .unable
        }
    }

    private func record(
        _ rule: Rule, key: Substring?, _ outcome: RuleOutcome, _ context: inout EvaluationContext,
        into report: inout DatasheetReport, _ options: Options
    ) {
        let verdict: Verdict
        switch outcome {
        case .notApplicable:
            report.notApplicableRules += 1
            return
        case .passed:
            report.passedRules += 1
            verdict = .passed
        case .broken:
            verdict = rule.severity.verdict
            if verdict > report.verdict { report.verdict = verdict }
            report.findings.append(finding(rule, key: key, verdict: verdict, &context))
        case .unable:
            report.unableRules += 1
            verdict = .unable
            if options.reportUnable { report.findings.append(finding(rule, key: key, verdict: verdict, &context)) }
        }
        if options.attributeVerdicts {
            for read in rule.reads {
                let path = key.map { "\(rule.each ?? read)[\($0)]" + (read == rule.each ? "" : ".\(read)") } ?? read
                if report.attributeVerdicts[path].map({ $0 < verdict }) ?? true {
                    report.attributeVerdicts[path] = verdict
                }
            }
        }
    }

    private func finding(
        _ rule: Rule, key: Substring?, verdict: Verdict, _ context: inout EvaluationContext
    ) -> Finding {
        let observed = rule.observed?.evaluate(&context).display ?? ""
        let expected = rule.expected?.evaluate(&context).display ?? ""
        var attribute = rule.attribute
        if let key { attribute = attribute.replacingFirst("$", with: String(key)) }
        var message = rule.message
        message = message.replacingAll("{observed}", with: observed)
        message = message.replacingAll("{expected}", with: expected)
        message = message.replacingAll("{attribute}", with: attribute)
        if let key { message = message.replacingAll("{key}", with: String(key)) }
        return Finding(
            rule: rule.id, attribute: attribute, verdict: verdict,
            severity: verdict == .unable ? "unable" : rule.severity.rawValue, message: message, observed: observed,
            expected: expected, reference: rule.reference)
    }
}

extension String {
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard contains(target) else { return self }
        return split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }

    func replacingFirst(_ target: Character, with replacement: String) -> String {
        guard let index = firstIndex(of: target) else { return self }
        return String(self[..<index]) + replacement + String(self[self.index(after: index)...])
    }
}
