/// The one CSV writer of every CSV ItemAudit gives out: the CLI's `--format csv`, the web pages'
/// tables and static reports, and the findings of a datasheet check.
///
/// Fields follow RFC 4180: quoted when they hold a comma, a quote or a line break, quotes doubled.
/// Every one of those CSVs goes to spreadsheets, and their values come from suppliers' datasheets
/// and from users, so a value a spreadsheet would run as a formula is written as text
/// (OWASP, "CSV Injection"): one starting with `=`, `+`, `-`, `@`, a tab or a carriage return,
/// and not a plain number, gets a leading `'`. Output meant to be read back by a program keeps
/// values as they are, and is JSON (`--format json`, the API's answers, datasheets exported as
/// JSON Lines), not CSV.
///
/// ```swift
/// CSV.record(["06412345100088", #"=HYPERLINK("http://x","y")"#, "-12.5"])
/// // 06412345100088,"'=HYPERLINK(""http://x"",""y"")",-12.5
/// ```
public enum CSV {
    /// `value` as one field: a formula made text, then quoted when it must be.
    public static func field(_ value: String) -> String {
        quoted(runsAsFormula(value) ? "'" + value : value)
    }

    /// `values` as one record (fields joined by commas), without a line ending.
    public static func record(_ values: [String]) -> String {
        values.map(field).joined(separator: ",")
    }

    /// Whether a spreadsheet would take `value` for a formula: it starts with `=`, `+`, `-`, `@`, a
    /// tab or a carriage return, and is not a plain number such as `-12.5` or `+3e2`.
    public static func runsAsFormula(_ value: String) -> Bool {
        guard let first = value.utf8.first, formulaStarts.contains(first) else { return false }
        return !isPlainNumber(value)
    }

    /// `value` quoted when it holds a separator, a quote or a line break (RFC 4180), as it is otherwise.
    static func quoted(_ value: String) -> String {
        guard value.utf8.contains(where: { $0 == comma || $0 == quote || $0 == 0x0A || $0 == 0x0D }) else {
            return value
        }
        // By scalar, not by Character: a quote followed by a combining mark is still a quote.
        var out = "\""
        for scalar in value.unicodeScalars {
            out.unicodeScalars.append(scalar)
            if scalar == "\"" { out.unicodeScalars.append(scalar) }
        }
        return out + "\""
    }

    /// `=`, `+`, `-`, `@`, tab and carriage return.
    private static let formulaStarts: Set<UInt8> = [0x3D, 0x2B, 0x2D, 0x40, 0x09, 0x0D]
    private static let comma = UInt8(ascii: ",")
    private static let quote = UInt8(ascii: "\"")

    /// An optional sign, digits with at most one decimal point, and an optional exponent: what a
    /// spreadsheet reads as a number, never as a formula.
    static func isPlainNumber(_ value: String) -> Bool {
        var bytes = value.utf8[...]
        func digits() -> Int {
            let count = bytes.prefix { $0 >= 0x30 && $0 <= 0x39 }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        if let sign = bytes.first, sign == 0x2B || sign == 0x2D { bytes = bytes.dropFirst() }
        var mantissa = digits()
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            mantissa += digits()
        }
        guard mantissa > 0 else { return false }
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == 0x2B || sign == 0x2D { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }
}
