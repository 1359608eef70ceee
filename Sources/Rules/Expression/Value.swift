import Datasheets

/// A value during rule evaluation. `missing` is the third truth value: an attribute that is absent or
/// cannot be read as needed makes comparisons on it `missing`, and a check that comes out `missing`
/// is reported as *unable to validate*.
public enum Value: Sendable, Equatable {
    case missing
    case bool(Bool)
    case number(Double)
    case text(Substring)
    case list([Value])

    /// The value as a number: numbers, and text that is a plain number (`"12.5"`).
    var number: Double? {
        switch self {
        case .number(let value): value
        case .text(let text): Quantity.number(text)
        case .bool(let flag): flag ? 1 : 0
        default: nil
        }
    }

    /// The value as text for messages and evidence.
    public var display: String {
        switch self {
        case .missing: "(absent)"
        case .bool(let flag): flag ? "true" : "false"
        case .number(let value): Value.format(value)
        case .text(let text): String(text)
        case .list(let items): items.map(\.display).joined(separator: ", ")
        }
    }

    /// A number without a trailing `.0`, at most three decimals.
    static func format(_ value: Double) -> String {
        if value.isNaN || value.isInfinite { return "\(value)" }
        let rounded = (value * 1000).rounded() / 1000
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        var text = String(rounded)
        if text.contains("e") { return text }
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}
