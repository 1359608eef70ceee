import ArgumentParser
import AuditService
import Foundation

/// How a command prints data: an aligned table for people, JSON for programs (values as they are),
/// CSV for spreadsheets and scripts (a value a spreadsheet would run as a formula written as text).
enum OutputFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case table, json, csv
}

/// The `--excel` flag of every command that prints CSV: one option, shared by `FormatOption` and
/// the commands with formats of their own (`check`).
///
/// Spreadsheets drop the leading zeros of a GTIN read as a number and guess the encoding of a file
/// without a byte order mark: `--excel` writes a UTF-8 BOM and such numbers as text (`="0…"`).
struct SpreadsheetOption: ParsableArguments {
    @Flag(
        help:
            "CSV for spreadsheets: a UTF-8 byte order mark, and numbers with leading zeros (GTINs) written as text (=\"0…\")."
    )
    var excel = false

    /// Refuses `--excel` without CSV output (`isCSV`).
    func validate(isCSV: Bool) throws {
        if excel && !isCSV { throw ValidationError("--excel goes with --format csv") }
    }

    /// The byte order mark to print before streamed CSV lines (empty without `--excel`).
    var byteOrderMark: String { excel ? "\u{FEFF}" : "" }

    /// One CSV field, with `--excel` a number with a leading zero as text.
    func csvField(_ value: String) -> String { Self.field(value, excel: excel) }

    /// One CSV field (``CSV/field(_:)``); with `excel`, a number with a leading zero as the formula `="0…"`.
    static func field(_ value: String, excel: Bool) -> String {
        excel && TextTable.hasLeadingZero(value) ? "\"=\"\"\(value)\"\"\"" : CSV.field(value)
    }
}

/// The `--format` option of commands whose output is data.
///
/// Every format carries the same fields: table and CSV headers are the JSON keys, codes are
/// printed by their labels, times are ISO 8601 UTC. CSV follows RFC 4180, an empty value is an
/// empty field, and a value starting with `=`, `+`, `-`, `@`, a tab or a carriage return that is
/// not a number gets a leading `'` (``CSV``), so a spreadsheet does not run it. Spreadsheets drop
/// the leading zeros of a GTIN read as a number: import the column as text, or pass `--excel`.
struct FormatOption: ParsableArguments {
    @Option(help: "Output format: table, json or csv.")
    var format: OutputFormat = .table

    @OptionGroup var spreadsheet: SpreadsheetOption

    /// Whether `--excel` was given.
    var excel: Bool { spreadsheet.excel }

    func validate() throws { try spreadsheet.validate(isCSV: format == .csv) }

    /// `table` as aligned text, or as CSV (with `--excel`, for spreadsheets).
    func render(_ table: TextTable) -> String {
        format == .csv ? table.renderCSV(excel: excel) : table.renderText()
    }

    /// One object's fields (JSON keys and their printed values): a `field value` table for people,
    /// and for CSV one header row of the keys and one row of values (so CSV headers are JSON keys).
    func renderRecord(_ fields: [(key: String, value: String)], rightAligned: Bool = false) -> String {
        guard format == .csv else {
            var table = TextTable(columns: ["field", "value"], rightAligned: rightAligned ? [1] : [])
            for field in fields { table.append([field.key, field.value]) }
            return table.renderText()
        }
        return render(TextTable(columns: fields.map(\.key), rows: [fields.map(\.value)]))
    }

    /// Prints `value` as JSON, or `table` as aligned text or CSV.
    func emit<Value: Encodable>(_ value: Value, table: () -> TextTable) {
        switch format {
        case .json: print(JSONOutput.text(value), terminator: "")
        case .csv, .table: print(render(table()), terminator: "")
        }
    }
}

/// "1 datasheet", "2 datasheets": a count and its noun, in the right number.
func counted(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
}

/// The JSON every command prints: pretty, keys sorted (stable output), slashes unescaped.
enum JSONOutput {
    /// `value` as JSON text ending in a newline; `fallback` if it cannot be encoded.
    static func text<Value: Encodable>(_ value: Value, fallback: String = "null") -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Plain numbers and strings always encode; the fallback is for the unforeseen.
        let data = (try? encoder.encode(value)) ?? Data(fallback.utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
