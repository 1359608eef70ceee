/// Compiles rule files into rules with slot-resolved expressions, sharing one table of attribute
/// slots and definitions across every loaded set.
struct RuleCompiler {
    var slotIndex: [String: Int] = [:]
    var slotPaths: [String] = []
    var definitions: [Expression] = []
    var definitionReadsItem: [Bool] = []
    var definitionIndex: [String: Int] = [:]
    var ruleIds: [String: SourcePosition] = [:]

    mutating func slot(for path: String) -> Int {
        if let slot = slotIndex[path] { return slot }
        slotIndex[path] = slotPaths.count
        slotPaths.append(path)
        return slotPaths.count - 1
    }

    mutating func expression(_ text: String, at position: SourcePosition) throws(RuleFileError) -> Expression {
        let definitionIndex = self.definitionIndex
        var newSlots: [String] = []
        let base = slotIndex
        let offset = slotPaths.count
        var parser = try ExpressionParser(
            text, origin: position,
            resolve: { name in definitionIndex[name].map { .define(index: $0, name: name) } },
            attributeSlot: { path in
                if let slot = base[path] { return slot }
                if let index = newSlots.firstIndex(of: path) { return offset + index }
                newSlots.append(path)
                return offset + newSlots.count - 1
            })
        let expression = try parser.parse()
        for path in newSlots { _ = slot(for: path) }
        return expression
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
        let body = try expression(bodyText, at: position)
        definitionIndex[name] = definitions.count
        definitions.append(body)
        definitionReadsItem.append(body.readsItem)
    }

    /// Compiles one file; definitions become visible to later files.
    mutating func compile(_ text: String, file: String) throws(RuleFileError) -> RuleSet {
        let raw = try RuleFileParser.parse(text, file: file)
        for definition in raw.definitions { try define(definition) }
        guard let name = raw.name ?? (raw.rules.isEmpty ? "" : nil) else {
            throw RuleFileError(
                SourcePosition(file: file, line: 1, column: 1), "the file has rules but no 'set NAME' line")
        }
        var rules: [Rule] = []
        for rawRule in raw.rules {
            rules.append(try compile(rawRule, set: name))
        }
        return RuleSet(name: name, title: raw.title ?? name, rules: rules, file: file)
    }

    mutating func compile(_ raw: RuleFileParser.RawRule, set: String) throws(RuleFileError) -> Rule {
        func required(_ key: String) throws(RuleFileError) -> RuleFileParser.Entry {
            guard let entry = raw.entries[key], !entry.value.isEmpty else {
                throw RuleFileError(raw.position, "rule \(raw.id) has no '\(key)'; every rule needs one")
            }
            return entry
        }
        if let earlier = ruleIds[raw.id] {
            throw RuleFileError(raw.position, "rule id \(raw.id) is already used at \(earlier); ids are never reused")
        }
        ruleIds[raw.id] = raw.position
        let severityEntry = try required("severity")
        guard let severity = Severity(rawValue: severityEntry.value) else {
            throw RuleFileError(
                severityEntry.position, "severity is 'failure' or 'warning', not '\(severityEntry.value)'")
        }
        let reads = try required("reads").value.split(separator: ",").map { $0.trimmingCharacters(in: " ") }
        let check = try required("check")
        let each = raw.entries["each"]?.value
        let when = raw.entries["when"]
        let observed = raw.entries["observed"]
        let expected = raw.entries["expected"]
        return Rule(
            id: raw.id, title: try required("title").value, severity: severity, reads: reads, each: each,
            message: try required("message").value, reference: try required("reference").value,
            attribute: raw.entries["attribute"]?.value ?? reads[0], ruleSet: set, location: raw.position,
            whenText: when?.value, checkText: check.value, observedText: observed?.value, expectedText: expected?.value,
            when: try when.map { entry throws(RuleFileError) in try expression(entry.value, at: entry.position) },
            check: try expression(check.value, at: check.position),
            observed: try observed.map { entry throws(RuleFileError) in try expression(entry.value, at: entry.position)
            },
            expected: try expected.map { entry throws(RuleFileError) in try expression(entry.value, at: entry.position)
            })
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
