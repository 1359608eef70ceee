import ArgumentParser
import Foundation

/// How a command prints data: an aligned table for people, JSON or CSV for programs.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case table, json, csv
}

/// The `--format` option of commands whose output is data.
///
/// Every format carries the same fields: table and CSV headers are the JSON keys, codes are
/// printed by their labels, times are ISO 8601 UTC. CSV follows RFC 4180, an empty value is an
/// empty field. Spreadsheets drop the leading zeros of a GTIN read as a number: import the column
/// as text, or pass `--excel`.
struct FormatOption: ParsableArguments {
    @Option(help: "Output format: table, json or csv.")
    var format: OutputFormat = .table

    @Flag(
        help:
            "CSV for spreadsheets: a UTF-8 byte order mark, and numbers with leading zeros (GTINs) written as text (=\"0…\")."
    )
    var excel = false

    func validate() throws {
        if excel && format != .csv { throw ValidationError("--excel goes with --format csv") }
    }

    /// Prints `value` as JSON, or `table` as aligned text or CSV.
    func emit<Value: Encodable>(_ value: Value, table: () -> TextTable) {
        switch format {
        case .json: print(JSONOutput.text(value), terminator: "")
        case .csv: print(table().renderCSV(excel: excel), terminator: "")
        case .table: print(table().renderText(), terminator: "")
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
