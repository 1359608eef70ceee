import ArgumentParser
import AuditService
import Foundation

/// `itemaudit datasheets …`: what ItemAudit understood from datasheet files, and the same
/// datasheets written out in another format.
struct DatasheetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "datasheets",
        abstract: "Show datasheets as read from any supported file, or convert them to another format.",
        discussion: """
            Reads GS1 Web Vocabulary JSON-LD, JSON Lines, CSV and GDSN Catalogue Item Notification XML \
            (see docs/gdsn-cin-mapping.md).

            Example:
              itemaudit datasheets show pool-export.xml
              itemaudit datasheets show pool-export.xml --format json
              itemaudit datasheets convert pool-export.xml --to jsonl > products.jsonl
              itemaudit datasheets convert products.jsonl --to cin > products.xml
            """,
        subcommands: [DatasheetsShowCommand.self, DatasheetsConvertCommand.self]
    )

    /// Every datasheet of `files` in order, one at a time (memory stays that of one datasheet);
    /// records that cannot be read are warned about on stderr.
    static func forEach(_ files: [String], _ body: (Datasheet) -> Void) throws {
        for file in files {
            try ServiceAccess.requireTextFile(file, kind: "a datasheet file: .jsonld/.json, .jsonl/.ndjson, .csv or .xml")
            do {
                try DatasheetFiles.read(path: file) { record in
                    switch record {
                    case .datasheet(let sheet, let issues):
                        for issue in issues { warn("\(issue)") }
                        body(sheet)
                    case .failed(let issue):
                        warn("\(issue)")
                    }
                    return true
                }
            } catch {
                throw CLIFailure.badInput("\(error)")
            }
        }
    }

    /// The datasheets as one JSON array, printed as they are read.
    static func printJSONArray(_ files: [String]) throws {
        var first = true
        print("[", terminator: "")
        try forEach(files) { sheet in
            print((first ? "" : ",\n") + DatasheetFiles.jsonLine(sheet), terminator: "")
            first = false
        }
        print("]")
    }

    static func warn(_ message: String) {
        FileHandle.standardError.write(Data("warning: \(TerminalText.escaped(message))\n".utf8))
    }
}

/// `itemaudit datasheets show FILE… [--format json|table]`.
struct DatasheetsShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print the datasheets as ItemAudit read them.",
        discussion: """
            --format json prints one JSON array (all files together) of GS1 Web Vocabulary JSON-LD \
            objects in the shapes the JSON-LD importer reads; table prints each datasheet's attribute \
            paths and values.

            Example:
              itemaudit datasheets show pool-export.xml supplier.jsonl --format json
            """)

    @Argument(help: "Datasheet files: .jsonld/.json, .jsonl/.ndjson, .csv or GDSN CIN .xml.")
    var files: [String]

    @Option(help: "Output format: table or json.")
    var format: String = "table"

    func run() throws {
        guard format == "table" || format == "json" else {
            throw CLIFailure.badInput("--format must be table or json (got '\(TerminalText.escaped(format))')")
        }
        if format == "json" {
            try DatasheetsCommand.printJSONArray(files)
            return
        }
        var index = 0
        try DatasheetsCommand.forEach(files) { sheet in
            if index > 0 { print("") }
            index += 1
            let source = sheet.source.map { "\($0.file):\($0.line)" } ?? "-"
            print(TerminalText.escaped("\(sheet.gtin ?? "(no gtin)")  \(source)"))
            var table = TextTable(columns: ["path", "value"])
            for attribute in sheet.attributes {
                table.append([TerminalText.escaped(attribute.path), TerminalText.escaped(attribute.value)])
            }
            print(table.renderText(), terminator: "")
        }
    }
}

/// `itemaudit datasheets convert FILE… --to jsonld|jsonl|csv|cin`: values as they are, for re-import.
struct DatasheetsConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Write the datasheets of any supported file as JSON-LD, JSON Lines, CSV or GDSN CIN XML.",
        discussion: """
            Values are written as they are (no formula protection in CSV), so the output reads back \
            to the same attributes. cin writes one Catalogue Item Notification (BMS 3.1) with an ADD \
            transaction per datasheet (docs/gdsn-cin-mapping.md, "Writing"); attributes CIN cannot \
            carry are named in warnings.

            Example:
              itemaudit datasheets convert pool-export.xml --to csv > products.csv
              itemaudit datasheets convert products.jsonl --to cin > products.xml
            """)

    @Argument(help: "Datasheet files: .jsonld/.json, .jsonl/.ndjson, .csv or GDSN CIN .xml.")
    var files: [String]

    @Option(help: "Target format: jsonld, jsonl, csv or cin.")
    var to: String

    func run() throws {
        switch to {
        case "jsonl":
            try DatasheetsCommand.forEach(files) { print(DatasheetFiles.jsonLine($0)) }
        case "jsonld":
            try DatasheetsCommand.printJSONArray(files)
        case "csv":
            // The header is every path of every datasheet, so CSV holds them all before writing.
            var sheets: [Datasheet] = []
            try DatasheetsCommand.forEach(files) { sheets.append($0) }
            var columns: [String] = []
            var seen: Set<String> = []
            for sheet in sheets { for path in sheet.paths where seen.insert(path).inserted { columns.append(path) } }
            print(columns.map(Self.field).joined(separator: ","))
            for sheet in sheets {
                var values: [String: String] = [:]
                for attribute in sheet.attributes { values[attribute.path] = attribute.value }
                print(columns.map { Self.field(values[$0] ?? "") }.joined(separator: ","))
            }
        case "cin":
            var number = 0
            print(DatasheetFiles.cinHeader, terminator: "")
            try DatasheetsCommand.forEach(files) { sheet in
                number += 1
                let transaction = DatasheetFiles.cinTransaction(sheet, number: number)
                for reason in transaction.notWritten {
                    DatasheetsCommand.warn("\(sheet.gtin ?? "datasheet \(number)"): \(reason)")
                }
                print(transaction.xml, terminator: "")
            }
            print(DatasheetFiles.cinFooter, terminator: "")
        default:
            throw CLIFailure.badInput("--to must be jsonld, jsonl, csv or cin (got '\(TerminalText.escaped(to))')")
        }
    }

    /// One RFC 4180 field, as it is.
    static func field(_ value: String) -> String {
        value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
            ? "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : value
    }
}

/// Text safe to print on a terminal: control characters written as `\u{…}`.
enum TerminalText {
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
