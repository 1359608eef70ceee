/// Compiles rule files into rules with slot-resolved expressions, sharing one table of attribute
/// slots and definitions across every loaded set.
struct RuleCompiler {
    var slotIndex: [String: Int] = [:]
    var slotPaths: [String] = []
    var definitions: [Expression] = []
    var definitionReadsItem: [Bool] = []
    var definitionIndex: [String: Int] = [:]
    /// The depth of each definition's tree, counting the definitions it uses.
    var definitionDepths: [Int] = []
    var ruleIds: [String: SourcePosition] = [:]

    mutating func slot(for path: String) -> Int {
        if let slot = slotIndex[path] { return slot }
        slotIndex[path] = slotPaths.count
        slotPaths.append(path)
        return slotPaths.count - 1
    }

    mutating func expression(_ text: String, at position: SourcePosition) throws(RuleFileError) -> Expression {
        try expressionAndDepth(text, at: position).expression
    }

    /// Parses an expression and returns it with the depth of its tree.
    mutating func expressionAndDepth(
        _ text: String, at position: SourcePosition
    ) throws(RuleFileError) -> (expression: Expression, depth: Int) {
        let definitionIndex = self.definitionIndex
        let depths = definitionDepths
        var newSlots: [String] = []
        let base = slotIndex
        let offset = slotPaths.count
        var parser = try ExpressionParser(
            text, origin: position,
            resolve: { name in definitionIndex[name].map { (.define(index: $0, name: name), depths[$0]) } },
            attributeSlot: { path in
                if let slot = base[path] { return slot }
                if let index = newSlots.firstIndex(of: path) { return offset + index }
                newSlots.append(path)
                return offset + newSlots.count - 1
            })
        let expression = try parser.parse()
        for path in newSlots { _ = slot(for: path) }
        return (expression, parser.lastDepth)
    }

    /// Compiles one `define Name = expression` line; the name is visible to everything compiled later.
    mutating func define(_ definition: RuleFileParser.Entry) throws(RuleFileError) {
        guard let equals = definition.value.firstIndex(of: "=") else {
            throw RuleFileError(definition.position, "a definition is 'define Name = expression'")
        }
        let name = definition.value[..<equals].trimmingCharacters(in: " ")
        guard let first = name.first, first.isUppercase, !name.contains(" ") else {
            throw RuleFileError(
                definition.position, "a defined name starts with a capital letter: 'define Beverage = …'")
        }
        guard definitionIndex[name] == nil else {
            throw RuleFileError(definition.position, "'\(name)' is already defined")
        }
        let bodyText = String(definition.value[definition.value.index(after: equals)...])
        var position = definition.position
        position.column += definition.value.distance(from: definition.value.startIndex, to: equals) + 1
        let (body, depth) = try expressionAndDepth(bodyText, at: position)
        definitionIndex[name] = definitions.count
        definitionDepths.append(depth)
        definitions.append(body)
        definitionReadsItem.append(body.readsItem)
    }

    /// Compiles one file; definitions become visible to later files. Throws the file's first problem.
    mutating func compile(_ text: String, file: String) throws(RuleFileError) -> RuleSet {
        var problems: [RuleFileError] = []
        let set = compile(text, file: file, problems: &problems)
        if let first = problems.min(by: {
            ($0.position.line, $0.position.column) < ($1.position.line, $1.position.column)
        }) {
            throw first
        }
        return set
    }

    /// Compiles one file, collecting every problem (a rule with a problem is left out of the set).
    mutating func compile(_ text: String, file: String, problems: inout [RuleFileError]) -> RuleSet {
        let raw = RuleFileParser.read(text, file: file)
        problems += raw.problems
        for definition in raw.definitions {
            do { try define(definition) } catch { problems.append(error) }
        }
        if raw.name == nil, !raw.rules.isEmpty {
            problems.append(
                RuleFileError(
                    SourcePosition(file: file, line: 1, column: 1),
                    "the file has rules but no 'set NAME' line; add one at the top"))
        }
        let name = raw.name ?? ""
        var rules: [Rule] = []
        for rawRule in raw.rules {
            if let rule = compile(rawRule, set: name, problems: &problems) { rules.append(rule) }
        }
        return RuleSet(name: name, title: raw.title ?? name, rules: rules, file: file)
    }

    /// Compiles one rule, throwing its first problem.
    mutating func compile(_ raw: RuleFileParser.RawRule, set: String) throws(RuleFileError) -> Rule {
        var problems: [RuleFileError] = []
        guard let rule = compile(raw, set: set, problems: &problems), problems.isEmpty else {
            throw problems.first ?? RuleFileError(raw.position, "rule \(raw.id) cannot be compiled")
        }
        return rule
    }

    /// Compiles one rule, appending every problem it has to `problems`; nil when it has any.
    mutating func compile(
        _ raw: RuleFileParser.RawRule, set: String, problems: inout [RuleFileError]
    ) -> Rule? {
        let before = problems.count
        func required(_ key: String) -> RuleFileParser.Entry? {
            guard let entry = raw.entries[key], !entry.value.isEmpty else {
                problems.append(RuleFileError(raw.position, "rule \(raw.id) has no '\(key)'; every rule needs one"))
                return nil
            }
            return entry
        }
        func parsed(_ entry: RuleFileParser.Entry?) -> Expression? {
            guard let entry else { return nil }
            do { return try expression(entry.value, at: entry.position) } catch {
                problems.append(error)
                return nil
            }
        }
        if let earlier = ruleIds[raw.id] {
            problems.append(
                RuleFileError(raw.position, "rule id \(raw.id) is already used at \(earlier); ids are never reused"))
        } else {
            ruleIds[raw.id] = raw.position
        }
        let title = required("title")
        let severityEntry = required("severity")
        let severity = severityEntry.flatMap { Severity(rawValue: $0.value) }
        if let severityEntry, severity == nil {
            problems.append(
                RuleFileError(
                    severityEntry.position, "severity is 'failure' or 'warning', not '\(severityEntry.value)'"))
        }
        var applies = Applicability.both
        if let entry = raw.entries["applies"] {
            if let value = Applicability(rawValue: entry.value) {
                applies = value
            } else {
                problems.append(
                    RuleFileError(
                        entry.position, "applies is 'master-data', 'physical-item' or 'both', not '\(entry.value)'"))
            }
        }
        let reads = required("reads")?.value.split(separator: ",").map { $0.trimmingCharacters(in: " ") } ?? []
        let checkEntry = required("check")
        let each = raw.entries["each"]?.value
        let whenEntry = raw.entries["when"]
        let observedEntry = raw.entries["observed"]
        let expectedEntry = raw.entries["expected"]
        let messageEntry = required("message")
        let reference = required("reference")
        if let messageEntry {
            checkPlaceholders(messageEntry, each: each != nil, problems: &problems)
        }
        let when = parsed(whenEntry)
        let check = parsed(checkEntry)
        let observed = parsed(observedEntry)
        let expected = parsed(expectedEntry)
        guard problems.count == before, let title, let severity, let checkEntry, let check, let messageEntry,
            let reference
        else { return nil }
        return Rule(
            id: raw.id, title: title.value, severity: severity, applies: applies, reads: reads, each: each,
            message: messageEntry.value, reference: reference.value,
            attribute: raw.entries["attribute"]?.value ?? reads.first ?? "", ruleSet: set, location: raw.position,
            whenText: whenEntry?.value, checkText: checkEntry.value, observedText: observedEntry?.value,
            expectedText: expectedEntry?.value, when: when, check: check, observed: observed, expected: expected)
    }

    /// Reports every `{…}` in a message that is not a placeholder (`{key}` only in an `each` rule).
    private func checkPlaceholders(_ entry: RuleFileParser.Entry, each: Bool, problems: inout [RuleFileError]) {
        let known = each ? ["observed", "expected", "attribute", "key"] : ["observed", "expected", "attribute"]
        let characters = Array(entry.value)
        var index = 0
        while index < characters.count {
            defer { index += 1 }
            guard characters[index] == "{" || characters[index] == "}" else { continue }
            var position = entry.position
            position.column += index
            guard characters[index] == "{", let close = characters[index...].firstIndex(of: "}") else {
                problems.append(
                    RuleFileError(
                        position, "an unmatched '\(characters[index])' in the message; write placeholders as {observed}"
                    ))
                continue
            }
            let name = String(characters[(index + 1)..<close])
            if !known.contains(name) {
                let hint = name == "key" ? " ({key} needs an 'each' rule)" : ""
                problems.append(
                    RuleFileError(
                        position,
                        "unknown placeholder {\(name)} in the message\(hint); use \(known.map { "{\($0)}" }.joined(separator: ", "))"
                    ))
            }
            index = close
        }
    }
}

extension StringProtocol {
    func trimmingCharacters(in set: Character) -> String {
        var slice = Substring(self)
        while slice.first == set || slice.first == "\t" { slice.removeFirst() }
        while slice.last == set || slice.last == "\t" { slice.removeLast() }
        return String(slice)
    }
}
