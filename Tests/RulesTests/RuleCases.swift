import Datasheets
import Foundation
import Testing

/// The table of `Fixtures/rule-cases.txt`: base datasheets and, per rule, a passing and a failing variant.
struct RuleCase: Sendable, CustomTestStringConvertible {
    var rule: String
    var passes: Bool
    var datasheet: Datasheet
    var line: Int

    var testDescription: String { "\(rule) \(passes ? "pass" : "fail") (rule-cases.txt:\(line))" }

    /// Every case in the fixture file, in order.
    static let all: [RuleCase] = load()

    private static func load() -> [RuleCase] {
        guard let url = Bundle.module.url(forResource: "rule-cases", withExtension: "txt", subdirectory: "Fixtures"),
            let text = try? String(contentsOf: url, encoding: .utf8)
        else { return [] }
        var bases: [String: [(path: String, value: String)]] = [:]
        var current: (name: String, flat: [(path: String, value: String)])?
        var cases: [RuleCase] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("base ") {
                current = (String(line.dropFirst(5)), [])
            } else if line == "end", let base = current {
                bases[base.name] = base.flat
                current = nil
            } else if current != nil {
                current?.flat.append(pair(line))
            } else {
                let parts = line.components(separatedBy: " ; ")
                let head = parts[0].split(separator: " ").map(String.init)
                guard head.count == 3, var flat = bases[head[2]] else { continue }
                for edit in parts.dropFirst() {
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
                cases.append(
                    RuleCase(
                        rule: head[0], passes: head[1] == "pass", datasheet: Datasheet(flat: flat), line: index + 1))
            }
        }
        return cases
    }

    private static func pair(_ line: String) -> (path: String, value: String) {
        guard let equals = line.range(of: " = ") else { return (line, "") }
        return (String(line[..<equals.lowerBound]), String(line[equals.upperBound...]))
    }
}
