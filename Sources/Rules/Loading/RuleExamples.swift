import Datasheets

/// A datasheet a built-in rule passes or fails on, from `Schemas/rules/examples.txt`.
///
/// The file defines base datasheets (`base NAME` … `end`, flat `path = value` lines) and, per rule,
/// cases `RULE-ID pass|fail BASE ; path = value ; -path …`: the base with some values set or removed.
public struct RuleExample: Sendable {
    /// The rule id.
    public var rule: String
    /// True when the rule applies and holds on the datasheet; false when it applies and is broken.
    public var passes: Bool
    /// The base datasheet's name.
    public var base: String
    /// What differs from the base: `path = value` (set) or `-path` (removed).
    public var edits: [String]
    /// The datasheet.
    public var datasheet: Datasheet
    /// The line in `examples.txt`.
    public var line: Int
}

/// The examples of the built-in rules.
public enum RuleExamples {
    /// Every example, in file order.
    public static let all: [RuleExample] = parse(BuiltInRuleSets.examples)

    /// The examples of one rule (a passing one first).
    public static func examples(of rule: String) -> [RuleExample] {
        all.filter { $0.rule == rule }.sorted { $0.passes && !$1.passes }
    }

    /// Reads the examples format; lines it cannot read are skipped (the rule tests check every rule has both).
    public static func parse(_ text: String) -> [RuleExample] {
        var bases: [String: [(path: String, value: String)]] = [:]
        var current: (name: String, flat: [(path: String, value: String)])?
        var examples: [RuleExample] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: " ")
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("base ") {
                current = (String(line.dropFirst(5)), [])
            } else if line == "end", let base = current {
                bases[base.name] = base.flat
                current = nil
            } else if current != nil {
                current?.flat.append(pair(line))
            } else {
                let parts = fields(line)
                let head = parts[0].split(separator: " ").map(String.init)
                guard head.count == 3, var flat = bases[head[2]] else { continue }
                let edits = Array(parts.dropFirst())
                for edit in edits {
                    if edit.hasPrefix("-") {
                        flat.removeAll { $0.path == String(edit.dropFirst()) }
                    } else {
                        let (path, value) = pair(edit)
                        if let at = flat.firstIndex(where: { $0.path == path }) {
                            flat[at].value = value
                        } else {
                            flat.append((path, value))
                        }
                    }
                }
                examples.append(
                    RuleExample(
                        rule: head[0], passes: head[1] == "pass", base: head[2], edits: edits,
                        datasheet: Datasheet(flat: flat), line: index + 1))
            }
        }
        return examples
    }

    /// The parts of a case line, separated by ` ; `.
    private static func fields(_ line: String) -> [String] {
        var parts: [String] = []
        var rest = Substring(line)
        while let range = rest.firstRange(of: " ; ") {
            parts.append(String(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
        }
        parts.append(String(rest))
        return parts
    }

    private static func pair(_ line: String) -> (path: String, value: String) {
        guard let equals = line.range(of: " = ") else { return (line, "") }
        return (String(line[..<equals.lowerBound]), String(line[equals.upperBound...]))
    }
}
