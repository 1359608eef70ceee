/// Reads the line-oriented rule file format of `Schemas/rules/*.rules`:
///
///     # a comment
///     set nutrition
///     title Nutrition declaration
///     define NeedsNutrition = not AnnexV and not AlcoholOver12
///     rule NUT-001
///       title     Energy declared in kJ
///       severity  failure
///       reads     energyPerNutrientBasis
///       each      hasAllergen                       (optional: check each item of a list)
///       when      NeedsNutrition                     (optional: when the rule applies)
///       check     present(amount(energyPerNutrientBasis, "KJO"))
///       message   Energy must be declared in kJ; found {observed}
///       observed  energyPerNutrientBasis            (optional expression)
///       expected  "a value in KJO"                  (optional expression)
///       reference EU 1169/2011 Art. 30(1)(a)
///       attribute energyPerNutrientBasis            (optional; default the first of reads)
///       applies   master-data                       (optional: master-data, physical-item or both, the default)
///
/// A line indented deeper than the key line above it continues that key's value; a line indented
/// like the keys must start with a key (an unknown key is a problem, not a continuation).
struct RuleFileParser {
    struct Entry {
        var key: String
        var value: String
        var position: SourcePosition
    }

    struct RawRule {
        var id: String
        var position: SourcePosition
        var entries: [String: Entry] = [:]
    }

    struct RawFile {
        var name: String?
        var title: String?
        var definitions: [Entry] = []
        var rules: [RawRule] = []
        /// Every line that could not be read, in file order (the rest of the file is still read).
        var problems: [RuleFileError] = []
    }

    static let ruleKeys: Set<String> = [
        "title", "severity", "reads", "each", "when", "check", "message", "observed", "expected", "reference",
        "attribute", "applies",
    ]

    /// Reads the file, throwing its first problem.
    static func parse(_ text: String, file: String) throws(RuleFileError) -> RawFile {
        let raw = read(text, file: file)
        if let first = raw.problems.first { throw first }
        return raw
    }

    /// Reads the file, collecting every problem in `RawFile.problems`.
    static func read(_ text: String, file: String) -> RawFile {
        var raw = RawFile()
        var currentRule: RawRule?
        var lastKey: String?
        var lastWasDefinition = false
        /// The indentation of the line a continuation would continue.
        var lastIndent = 0
        func finishRule() {
            if let rule = currentRule { raw.rules.append(rule) }
            currentRule = nil
        }
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let lineNumber = offset + 1
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let indent = line.distance(from: line.startIndex, to: trimmed.startIndex)
            let indented = indent > 0
            let keyEnd = trimmed.firstIndex(where: { $0 == " " || $0 == "\t" }) ?? trimmed.endIndex
            let key = String(trimmed[..<keyEnd])
            let valueStart = trimmed[keyEnd...].firstIndex(where: { $0 != " " && $0 != "\t" }) ?? trimmed.endIndex
            let value = String(trimmed[valueStart...])
            let column = line.distance(from: line.startIndex, to: valueStart) + 1
            let position = SourcePosition(file: file, line: lineNumber, column: column)
            let keyPosition = SourcePosition(file: file, line: lineNumber, column: indent + 1)
            let continues = indented && (lastWasDefinition || lastKey != nil) && indent > lastIndent
            if indented, currentRule != nil, Self.ruleKeys.contains(key), !continues {
                if currentRule?.entries[key] != nil {
                    raw.problems.append(
                        RuleFileError(keyPosition, "'\(key)' appears twice in rule \(currentRule?.id ?? ""); keep one"))
                } else {
                    currentRule?.entries[key] = Entry(key: key, value: value, position: position)
                }
                lastKey = key
                lastIndent = indent
                lastWasDefinition = false
                continue
            }
            if indented {
                let continuation = String(trimmed)
                if continues, lastWasDefinition, !raw.definitions.isEmpty {
                    raw.definitions[raw.definitions.count - 1].value += " " + continuation
                } else if continues, let lastKey, currentRule?.entries[lastKey] != nil {
                    currentRule?.entries[lastKey]?.value += " " + continuation
                } else if currentRule != nil {
                    raw.problems.append(
                        RuleFileError(
                            keyPosition,
                            "unknown key '\(key)' in rule \(currentRule?.id ?? ""); a rule line is one of "
                                + "\(Self.ruleKeys.sorted().joined(separator: ", ")) (indent a continued value deeper than its key)"
                        ))
                    lastKey = nil
                } else {
                    raw.problems.append(
                        RuleFileError(
                            keyPosition,
                            "an indented line '\(key)' outside a rule; start a rule with 'rule ID' or remove the indentation"
                        ))
                }
                continue
            }
            lastIndent = 0
            lastKey = nil
            lastWasDefinition = false
            switch key {
            case "set":
                if raw.name != nil {
                    raw.problems.append(RuleFileError(keyPosition, "a file holds one set; 'set' appears twice"))
                } else {
                    raw.name = value
                }
            case "title":
                raw.title = value
            case "define":
                finishRule()
                raw.definitions.append(Entry(key: "define", value: value, position: position))
                lastWasDefinition = true
            case "rule":
                finishRule()
                if value.isEmpty || value.contains(" ") {
                    raw.problems.append(
                        RuleFileError(position, "'rule' needs one id without spaces, e.g. 'rule NUT-001'"))
                } else {
                    currentRule = RawRule(id: value, position: position)
                }
            default:
                finishRule()
                raw.problems.append(
                    RuleFileError(
                        keyPosition,
                        "unknown line '\(key)'; top-level lines are set, title, define and rule (indent rule keys)"))
            }
        }
        finishRule()
        return raw
    }
}
