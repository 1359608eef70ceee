import ArgumentParser

/// How a command prints data: an aligned table for people, JSON or CSV for programs.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case table, json, csv
}

/// The `--format` option of commands whose output is data.
struct FormatOption: ParsableArguments {
    @Option(help: "Output format: table, json or csv.")
    var format: OutputFormat = .table
}
