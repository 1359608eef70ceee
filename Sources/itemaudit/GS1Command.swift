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
            with GS (0x1D) separators or a leading ^ for FNC1, symbology identifiers (]C1, ]e0, ]d2, \
            ]Q3, ]E0, ]E4…) and Digital Link URIs on any host. "-" reads one input per line from \
            stdin. JSON output is an array with one object per input. Exits 1 when any input is \
            invalid.

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
            print("[" + codes.map { $0.json(referenceYear: year) }.joined(separator: ",\n") + "]")
        case .table, .csv:
            var table = TextTable(columns: ["input", "valid", "kind", "gtin", "ai", "title", "value", "interpreted"])
            for code in codes {
                let head = [
                    Self.printable(code.input), code.isValid ? "yes" : "no", code.kind.rawValue,
                    code.gtin?.digits14 ?? "",
                ]
                if code.elements.isEmpty { table.append(head + ["", "", "", ""]) }
                for element in code.elements {
                    table.append(
                        head + [
                            element.ai, element.title, Self.printable(element.value),
                            code.interpretation(of: element, referenceYear: year) ?? "",
                        ])
                }
                for error in code.errors {
                    table.append(
                        head + [error.ai ?? "", "error", error.position.map { "at \($0)" } ?? "", error.message])
                }
            }
            print(table.render(output.format), terminator: "")
        }
        let invalid = codes.filter { !$0.isValid }.count
        if invalid > 0 {
            throw CLIFailure.problemsFound(
                "\(invalid) of \(codes.count) inputs are not valid GS1 data (see the errors above)")
        }
    }

    /// Shows the GS separator as <GS> in tables.
    static func printable(_ text: String) -> String {
        String(text.flatMap { $0 == "\u{1D}" ? Array("<GS>") : [$0] })
    }
}
