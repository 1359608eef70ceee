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
///
/// A line that starts with white space and does not start with a key continues the value above it.
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
    }

    static let ruleKeys: Set<String> = [
        "title", "severity", "reads", "each", "when", "check", "message", "observed", "expected", "reference",
        "attribute",
    ]

    static func parse(_ text: String, file: String) throws(RuleFileError) -> RawFile {
        var raw = RawFile()
        var currentRule: RawRule?
        var lastKey: String?
        var lastWasDefinition = false
        func finishRule() {
            if let rule = currentRule { raw.rules.append(rule) }
            currentRule = nil
        }
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let lineNumber = offset + 1
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let indented = trimmed.startIndex != line.startIndex
            let keyEnd = trimmed.firstIndex(where: { $0 == " " || $0 == "\t" }) ?? trimmed.endIndex
            let key = String(trimmed[..<keyEnd])
            let valueStart = trimmed[keyEnd...].firstIndex(where: { $0 != " " && $0 != "\t" }) ?? trimmed.endIndex
            let value = String(trimmed[valueStart...])
            let column = line.distance(from: line.startIndex, to: valueStart) + 1
            let position = SourcePosition(file: file, line: lineNumber, column: column)
            if indented, currentRule != nil, Self.ruleKeys.contains(key) {
                guard currentRule?.entries[key] == nil else {
                    throw RuleFileError(position, "'\(key)' appears twice in rule \(currentRule?.id ?? "")")
                }
                currentRule?.entries[key] = Entry(key: key, value: value, position: position)
                lastKey = key
                lastWasDefinition = false
                continue
            }
            if indented {
                let continuation = String(trimmed)
                if lastWasDefinition, !raw.definitions.isEmpty {
                    raw.definitions[raw.definitions.count - 1].value += " " + continuation
                } else if let lastKey, currentRule?.entries[lastKey] != nil {
                    currentRule?.entries[lastKey]?.value += " " + continuation
                } else {
                    throw RuleFileError(
                        position,
                        "unknown key '\(key)'; a rule line is one of \(Self.ruleKeys.sorted().joined(separator: ", "))")
                }
                continue
            }
            lastKey = nil
            lastWasDefinition = false
            switch key {
            case "set":
                guard raw.name == nil else {
                    throw RuleFileError(position, "a file holds one set; 'set' appears twice")
                }
                raw.name = value
            case "title":
                raw.title = value
            case "define":
                finishRule()
                raw.definitions.append(Entry(key: "define", value: value, position: position))
                lastWasDefinition = true
            case "rule":
                finishRule()
                guard !value.isEmpty, !value.contains(" ") else {
                    throw RuleFileError(position, "'rule' needs one id without spaces, e.g. 'rule NUT-001'")
                }
                currentRule = RawRule(id: value, position: position)
            default:
                throw RuleFileError(
                    position,
                    "unknown line '\(key)'; top-level lines are set, title, define and rule (indent rule keys)")
            }
        }
        finishRule()
        return raw
    }
}
