import ArgumentParser
import AuditService
import Foundation

/// `itemaudit gs1 …`: GS1 identifiers, element strings and Digital Link URIs.
struct GS1Command: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gs1",
        abstract: "Parse and validate GTINs, GS1 element strings and GS1 Digital Link URIs.",
        discussion: """
            Validation follows the GS1 Barcode Syntax Dictionary bundled in the binary.

            Example:
              itemaudit gs1 parse '(01)09506000134352(17)201225(10)ABC123' --format json
            """,
        subcommands: [GS1ParseCommand.self]
    )
}

/// `itemaudit gs1 parse INPUT…`: one result per input; exit 1 when any input is invalid.
struct GS1ParseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse",
        abstract: "Parse scanned codes: GTINs, element strings (any form) and Digital Link URIs.",
        discussion: """
            Accepts EAN-13/EAN-8/UPC-A/GTIN-14 digits, bracketed element strings, unbracketed ones \
            with GS (0x1D) separators, symbology identifiers and Digital Link URIs on any host. "-" \
            reads one input per line from stdin. JSON output is an array with one object per input. \
            Exits 1 when any input is invalid.

            Symbology identifiers (ISO/IEC 15424): ]C1, ]e0, ]e1, ]d2, ]Q3 and ]J1 carry element \
            strings and stand for the leading FNC1, so a GS right after them is an error; ]E0 (13 \
            digits), ]E4 (8) and ]E3 (13 and a 2- or 5-digit add-on) carry EAN/UPC; ]d1, ]Q1 and ]J0 \
            a Digital Link URI. ]e2/]e3 (escaped Composite data) and plain text are refused. Without \
            an identifier, one leading ^ or GS is read as FNC1 in first position (a GS is reported \
            as a note). One GS may end any value, the last one included; two in a row are refused. \
            A repeated AI must repeat its value and is listed each time it appears.

            Currencies in AIs (391n) and (393n) are checked against ISO 4217 as of \
            \(ScannedCode.currencyListDate); AI formats follow the GS1 Barcode Syntax \
            Dictionary \(ScannedCode.dictionaryRelease).

            Table and CSV rows quote an input of more than \(GS1ParseCommand.quotedLimit) characters \
            by its start and length (JSON has it whole), so output stays proportional to the input.

            Example:
              itemaudit gs1 parse 6414893400016 \\
                'https://id.gs1.org/01/09506000134352?17=201225'
              printf '(01)09506000134352(17)210230\\n' | itemaudit gs1 parse - --format json
            """
    )

    @Argument(help: "Codes to parse; \"-\" reads one per line from stdin.")
    var inputs: [String]

    @OptionGroup var output: FormatOption

    func run() throws {
        guard !inputs.isEmpty else {
            throw CLIFailure.badInput("no input given (pass codes as arguments or \"-\" to read them from stdin)")
        }
        var codes: [ScannedCode] = []
        for input in inputs {
            if input == "-" {
                while let line = readLine(strippingNewline: true) {
                    if !line.isEmpty { codes.append(ScannedCode(line)) }
                }
            } else {
                codes.append(ScannedCode(input))
            }
        }
        let year = Calendar(identifier: .gregorian).component(.year, from: Date())
        switch output.format {
        case .json:
            print(JSONOutput.text(codes.map { ParsedCode($0, referenceYear: year) }, fallback: "[]"), terminator: "")
        case .table, .csv:
            var table = TextTable(columns: ["input", "valid", "kind", "gtin", "ai", "title", "value", "interpreted"])
            for code in codes { table.rows += Self.rows(code, referenceYear: year, format: output.format) }
            print(output.render(table), terminator: "")
        }
        let invalid = codes.filter { !$0.isValid }.count
        if invalid > 0 {
            throw CLIFailure.problemsFound(
                "\(invalid) of \(codes.count) inputs are not valid GS1 data (see the errors above)")
        }
    }

    /// Inputs longer than this are quoted on each row by their start and length.
    static let quotedLimit = 128

    /// One row per element, error and note of `code`; each quotes at most `quotedLimit`
    /// characters of the input (and, in a table, where every row is padded to the widest
    /// cell, of a value), so the output grows with the input, not with its square.
    static func rows(_ code: ScannedCode, referenceYear: Int, format: OutputFormat) -> [[String]] {
        let head = [
            abbreviated(code.input), code.isValid ? "yes" : "no", code.kind.rawValue, code.gtin?.digits14 ?? "",
        ]
        let elements = code.elements
        var rows: [[String]] = []
        if elements.isEmpty && code.errors.isEmpty { rows.append(head + ["", "", "", ""]) }
        for element in elements {
            let value = format == .table ? abbreviated(element.value) : printable(element.value)
            rows.append(
                head + [
                    element.ai, element.title, value,
                    code.interpretation(of: element, referenceYear: referenceYear) ?? "",
                ])
        }
        for error in code.errors {
            rows.append(head + [error.ai ?? "", "error", error.position.map { "at \($0)" } ?? "", error.message])
        }
        for note in code.notes { rows.append(head + ["", "note", "", note]) }
        return rows
    }

    /// `text` with GS shown as <GS>, cut to its first `quotedLimit` characters and its length
    /// when longer.
    static func abbreviated(_ text: String) -> String {
        guard text.utf8.count > quotedLimit, text.count > quotedLimit else { return printable(text) }
        return printable(String(text.prefix(quotedLimit - 28))) + "… (\(text.utf8.count) bytes in all)"
    }

    /// Shows the GS separator as <GS> in tables.
    static func printable(_ text: String) -> String {
        String(text.flatMap { $0 == "\u{1D}" ? Array("<GS>") : [$0] })
    }
}

/// One input of `gs1 parse --format json` (`Schemas/output/gs1-parse.json`): every key is always
/// present, null when it does not apply.
struct ParsedCode: Encodable {
    struct Element: Encodable {
        var ai, title, value: String
        var interpreted: String?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(ai, forKey: .ai)
            try container.encode(title, forKey: .title)
            try container.encode(value, forKey: .value)
            try container.encode(interpreted, forKey: .interpreted)
        }

        enum CodingKeys: String, CodingKey { case ai, title, value, interpreted }
    }

    struct Problem: Encodable {
        var ai: String?
        var position: Int?
        var message: String

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(ai, forKey: .ai)
            try container.encode(position, forKey: .position)
            try container.encode(message, forKey: .message)
        }

        enum CodingKeys: String, CodingKey { case ai, position, message }
    }

    var input: String
    var valid: Bool
    var kind: String
    var gtin: String?
    var elements: [Element]
    var errors: [Problem]
    var notes: [String]

    init(_ code: ScannedCode, referenceYear: Int) {
        input = code.input
        valid = code.isValid
        kind = code.kind.rawValue
        gtin = code.gtin?.digits14
        elements = code.elements.map {
            Element(
                ai: $0.ai, title: $0.title, value: $0.value,
                interpreted: code.interpretation(of: $0, referenceYear: referenceYear))
        }
        errors = code.errors.map {
            Problem(ai: $0.ai, position: $0.position, message: ($0.ai.map { "AI (\($0)): " } ?? "") + $0.message)
        }
        notes = code.notes
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(input, forKey: .input)
        try container.encode(valid, forKey: .valid)
        try container.encode(kind, forKey: .kind)
        try container.encode(gtin, forKey: .gtin)
        try container.encode(elements, forKey: .elements)
        try container.encode(errors, forKey: .errors)
        try container.encode(notes, forKey: .notes)
    }

    enum CodingKeys: String, CodingKey { case input, valid, kind, gtin, elements, errors, notes }
}
