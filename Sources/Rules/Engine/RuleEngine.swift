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
    /// Each flattened rule's message, split at its placeholders.
    let messages: [MessageTemplate]

    /// What evaluating one rule needs: node indices in `program` (-1: none).
    struct PlannedRule: Sendable {
        var index: Int
        var eachTerm: Int32
        var when: Int32
        var check: Int32
        var observed: Int32
        var expected: Int32
        var verdict: Verdict
    }

    /// The compiled expressions.
    let program: CompiledProgram
    /// Machines of finished checks, reused by the next ones.
    let machines = MachinePool()
    /// Attribute path → slot, list term → index, item member name → id, looked up with bytes.
    let slotTable: ByteTable
    let termTable: ByteTable
    let memberTable: ByteTable
    let gtinSlot: Int32
    var hasEachTerms: Bool { !eachTerms.isEmpty }

    /// Every rule of every set, in order.
    public var rules: [Rule] { ruleSets.flatMap(\.rules) }

    /// What this engine checks: only the rules that apply to it run (nil: every rule).
    public let subject: Applicability.Subject?

    /// Compiles rule files given as `(file name, text)`; the prelude of definitions is loaded first.
    /// Only the rules that apply to `subject` are checked (nil: all of them; `ruleSets` lists every rule).
    /// Throws the first `RuleFileError`, which names the file and line.
    public init(
        files: [(file: String, text: String)], subject: Applicability.Subject? = nil, logger: Logger? = nil
    ) throws(RuleFileError) {
        self.subject = subject
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
        flatRules = sets.flatMap(\.rules).filter { rule in subject.map { rule.applies.covers($0) } ?? true }
        messages = flatRules.map { MessageTemplate($0.message) }
        var builder = ProgramBuilder(definitions: compiler.definitions, readsItem: compiler.definitionReadsItem)
        builder.compileDefinitions()
        var plan: [PlannedRule] = []
        for (index, rule) in flatRules.enumerated() {
            plan.append(
                PlannedRule(
                    index: index, eachTerm: Int32(rule.each.flatMap { terms.firstIndex(of: $0) } ?? -1),
                    when: rule.when.map { builder.compile($0) } ?? -1, check: builder.compile(rule.check),
                    observed: rule.observed.map { builder.compile($0) } ?? -1,
                    expected: rule.expected.map { builder.compile($0) } ?? -1, verdict: rule.severity.verdict))
        }
        self.plan = plan
        slotTable = ByteTable(compiler.slotIndex.mapValues { Int32($0) })
        termTable = ByteTable(Dictionary(uniqueKeysWithValues: terms.enumerated().map { ($1, Int32($0)) }))
        memberTable = ByteTable(builder.program.memberNames)
        program = CompiledProgram(
            builder.program, slotTable: slotTable, termTable: termTable, memberTable: memberTable,
            slotPathsHaveBrackets: compiler.slotIndex.keys.contains { $0.utf8.contains(UInt8(ascii: "[")) },
            gtinSlot: compiler.slotIndex["gtin"].map { Int32($0) } ?? -1, hasEachTerms: !terms.isEmpty)
        gtinSlot = program.gtinSlot
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
            gtin: "", source: datasheet.source?.description ?? "", verdict: .passed, findings: [],
            passedRules: 0, notApplicableRules: 0, unableRules: 0, attributeVerdicts: [:])
        let gtinAttribute = forEachOutcome(datasheet) { planned, key, outcome, machine in
            record(planned, key: key, outcome, machine, into: &report, options)
        }
        if gtinAttribute >= 0 {
            report.gtin = datasheet.attributes[gtinAttribute].value
        } else if gtinSlot < 0 {
            report.gtin = datasheet.gtin ?? ""
        }
        return report
    }

    /// What every rule made of one datasheet, one entry per rule (per list item for an `each` rule):
    /// not applicable, passed, broken or unable. For tests and `rules show`; `check` is the fast path.
    public func outcomes(_ datasheet: Datasheet) -> [RuleResult] {
        var results: [RuleResult] = []
        forEachOutcome(datasheet) { planned, key, outcome, machine in
            results.append(
                RuleResult(rule: flatRules[planned.index].id, key: key.map { machine.text($0) }, outcome: outcome))
        }
        return results
    }

    /// Loads the datasheet's facts and evaluates every rule, calling `body` with each outcome;
    /// returns the index of the attribute `gtin` (-1: none).
    @discardableResult
    private func forEachOutcome(
        _ datasheet: Datasheet, _ body: (PlannedRule, Span?, RuleOutcome, Machine) -> Void
    ) -> Int {
        // Not `take() ?? Machine(…)`: the autoclosure would copy the whole engine on every check.
        let machine: Machine
        if let idle = machines.take() { machine = idle } else { machine = Machine(program, slotCount: slotCount) }
        defer { machines.put(machine) }
        machine.load(datasheet)
        let items = machine.items
        for planned in plan {
            if planned.eachTerm >= 0 {
                var any = false
                for itemIndex in items.indices where items[itemIndex].term == planned.eachTerm {
                    any = true
                    machine.currentItem = Int32(itemIndex)
                    let outcome = outcome(planned, machine)
                    body(planned, items[itemIndex].key, outcome, machine)
                }
                machine.currentItem = -1
                if !any { body(planned, nil, .notApplicable, machine) }
            } else {
                let outcome = outcome(planned, machine)
                body(planned, nil, outcome, machine)
            }
        }
        return machine.gtinAttribute
    }

    private func outcome(_ planned: PlannedRule, _ machine: Machine) -> RuleOutcome {
        if planned.when >= 0, machine.evaluate(planned.when).truth != true { return .notApplicable }
        switch machine.evaluate(planned.check).truth {
        case true?: return .passed
        case false?: return .broken
        case nil: return .unable
        }
    }

    private func record(
        _ planned: PlannedRule, key span: Span?, _ outcome: RuleOutcome, _ machine: Machine,
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
            verdict = planned.verdict
            if verdict > report.verdict { report.verdict = verdict }
            report.findings.append(finding(planned, key: span, verdict: verdict, machine))
        case .unable:
            report.unableRules += 1
            verdict = .unable
            if options.reportUnable { report.findings.append(finding(planned, key: span, verdict: verdict, machine)) }
        }
        if options.attributeVerdicts {
            let rule = flatRules[planned.index]
            let key = span.map { machine.text($0) }
            for read in rule.reads {
                let path = key.map { "\(rule.each ?? read)[\($0)]" + (read == rule.each ? "" : ".\(read)") } ?? read
                if report.attributeVerdicts[path].map({ $0 < verdict }) ?? true {
                    report.attributeVerdicts[path] = verdict
                }
            }
        }
    }

    private func finding(
        _ planned: PlannedRule, key span: Span?, verdict: Verdict, _ machine: Machine
    ) -> Finding {
        let rule = flatRules[planned.index]
        let key = span.map { machine.text($0) }
        var observed = ""
        if planned.observed >= 0 {
            let value = machine.evaluate(planned.observed)
            observed = machine.value(value).display
        }
        var expected = ""
        if planned.expected >= 0 {
            let value = machine.evaluate(planned.expected)
            expected = machine.value(value).display
        }
        var attribute = rule.attribute
        if let key { attribute = attribute.replacingFirst("$", with: String(key)) }
        let message = messages[planned.index].filled(
            observed: observed, expected: expected, attribute: attribute, key: key)
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
