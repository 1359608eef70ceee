/// A parsed JSON value. Numbers keep their source text so nothing is lost to floating point.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Members in document order (duplicates kept; the importer lets the later one win).
    case object([(key: String, value: JSONValue)])

    /// Whether two values are equal.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    /// Hashes the value.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .number(let value), .string(let value): hasher.combine(value)
        case .array(let values): hasher.combine(values)
        case .object(let members):
            for member in members {
                hasher.combine(member.key)
                hasher.combine(member.value)
            }
        }
    }

    /// The member with this key (the last one when repeated).
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last(where: { $0.key == key })?.value
    }
}

/// A JSON syntax error with the 1-based line and column inside the parsed text.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The message.
    public var message: String
    /// The line.
    public var line: Int
    /// The column.
    public var column: Int

    /// A one-line description for messages.
    public var description: String { "\(message) at line \(line), column \(column)" }
}
