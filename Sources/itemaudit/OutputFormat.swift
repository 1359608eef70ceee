import ArgumentParser
import Foundation

/// How a command prints data: an aligned table for people, JSON or CSV for programs.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case table, json, csv
}

/// The `--format` option of commands whose output is data.
struct FormatOption: ParsableArguments {
    @Option(help: "Output format: table, json or csv.")
    var format: OutputFormat = .table
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
