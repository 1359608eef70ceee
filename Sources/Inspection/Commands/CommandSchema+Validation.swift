import Datasheets
import Foundation

extension CommandSchema {
    /// What is wrong with `value` against this schema, one sentence per problem, each naming the
    /// field by its JSON path (`'verdicts[0].verdict'`); empty when the value is valid.
    func problems(_ value: JSONValue, at path: String) -> [String] {
        problems(value, path: { path })
    }

    /// ``problems(_:at:)`` with the path built only when a problem names it: most values are
    /// valid, and their path text was built for nothing.
    private func problems(_ value: JSONValue, path: () -> String) -> [String] {
        func field() -> String {
            let path = path()
            return path.isEmpty ? "the command" : "'\(path)'"
        }
        if let type, !Self.fits(value, type: type) { return [Self.typeProblem(value, type: type, field: field())] }
        var problems: [String] = []
        if let allowed, !allowed.contains(value) {
            let list = allowed.map(Self.show).joined(separator: ", ")
            problems.append(
                "\(field()) must be \(allowed.count == 1 ? list : "one of \(list)"), found \(Self.show(value))")
        }
        switch value {
        case .number(let text):
            guard minimum != nil || maximum != nil else { break }
            let number = Double(text) ?? .nan
            if let minimum, let maximum, !(minimum...maximum).contains(number) {
                problems.append(
                    "\(field()) must be from \(Self.show(minimum)) to \(Self.show(maximum))\(meaning), found \(text)")
            } else if let minimum, number < minimum {
                problems.append("\(field()) must be at least \(Self.show(minimum))\(meaning), found \(text)")
            } else if let maximum, number > maximum {
                problems.append("\(field()) must be at most \(Self.show(maximum))\(meaning), found \(text)")
            }
        case .string(let text):
            if let minLength, text.count < minLength {
                problems.append(
                    minLength == 1 ? "\(field()) must not be empty" : "\(field()) needs \(minLength) characters")
            } else if let pattern {
                let range = NSRange(text.startIndex..., in: text)
                if pattern.regex.firstMatch(in: text, range: range) == nil {
                    problems.append("\(field()) '\(text)' does not have the form \(pattern.text)\(meaning)")
                }
            }
        case .array(let elements):
            if let minItems, elements.count < minItems {
                problems.append(
                    "\(field()) must hold at least \(minItems) item\(minItems == 1 ? "" : "s"), found \(elements.count)"
                )
            }
            if let items = items.first {
                for (index, element) in elements.enumerated() {
                    problems += items.problems(element, path: { "\(path())[\(index)]" })
                }
            }
        case .object(let members):
            for name in required where !members.contains(where: { $0.key == name }) {
                problems.append("missing field '\(Self.join(path(), name))'")
            }
            var unknown: [String] = []
            for (name, member) in members {
                if let schema = property(name) {
                    problems += schema.problems(member, path: { Self.join(path(), name) })
                } else if closed {
                    unknown.append("'\(Self.join(path(), name))'")
                }
            }
            if !unknown.isEmpty {
                let fields = properties.map(\.name).joined(separator: ", ")
                problems.append(
                    unknown.count == 1
                        ? "\(unknown[0]) is not a field here (fields: \(fields))"
                        : "\(unknown.joined(separator: ", ")) are not fields here (fields: \(fields))")
            }
        default:
            break
        }
        return problems
    }

    /// ` (0 store, 1 warehouse, 2 inspection centre)`: what the codes mean, from the description.
    private var meaning: String {
        guard let description, description.first?.isNumber == true else { return "" }
        return " (\(description.hasSuffix(".") ? String(description.dropLast()) : description))"
    }

    static func join(_ path: String, _ name: String) -> String { path.isEmpty ? name : "\(path).\(name)" }

    /// Whether `value` is of the JSON Schema `type`.
    static func fits(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("null", .null):
            true
        case ("number", .number): true
        case ("integer", .number(let text)): Double(text).map { $0 == $0.rounded() && abs($0) < 1e15 } ?? false
        default: false
        }
    }

    /// The sentence for a `value` that is not of `type`.
    static func typeProblem(_ value: JSONValue, type: String, field: String) -> String {
        let article = type == "integer" || type == "object" || type == "array" ? "an" : "a"
        return "\(field) must be \(article) \(type == "boolean" ? "true or false" : type), found \(kind(value))"
    }

    static func kind(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): "\(flag)"
        case .number(let text): "the number \(text)"
        case .string(let text): "the text \"\(text.count > 40 ? text.prefix(40) + "…" : text)\""
        case .array: "a list"
        case .object: "an object"
        }
    }

    static func show(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): "'\(text)'"
        case .number(let text): text
        default: kind(value)
        }
    }

    static func show(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }
}
