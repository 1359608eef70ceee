import AuditService

/// Renders rows as an aligned plain-text table or as CSV.
///
/// A cell of just `-` means "no value": a table prints the dash, CSV an empty field.
struct TextTable {
    var columns: [String]
    var rows: [[String]] = []

    /// Numbers and other right-aligned columns, by index.
    var rightAligned: Set<Int> = []

    mutating func append(_ row: [String]) { rows.append(row) }

    func renderText() -> String {
        var widths = columns.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.count)
            }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                let pad = String(repeating: " ", count: max(0, widths[index] - cell.count))
                return rightAligned.contains(index) ? pad + cell : cell + pad
            }
            .joined(separator: "  ")
            .trimmingTrailingSpaces()
        }
        var lines = [line(columns), line(widths.map { String(repeating: "-", count: $0) })]
        lines += rows.map(line)
        return lines.joined(separator: "\n") + "\n"
    }

    /// RFC 4180 CSV through ``CSV`` (a value a spreadsheet would run as a formula written as text).
    /// With `excel`, a UTF-8 byte order mark first (so Excel reads UTF-8), and a number with a
    /// leading zero (a GTIN) as the formula `="0…"` (so it stays text).
    func renderCSV(excel: Bool = false) -> String {
        let header = CSV.record(columns)
        let lines = rows.map { row in
            row.map { cell in
                if cell == "-" { return "" }
                return SpreadsheetOption.field(cell, excel: excel)
            }.joined(separator: ",")
        }
        return (excel ? "\u{FEFF}" : "") + ([header] + lines).joined(separator: "\n") + "\n"
    }

    /// Digits only, more than one, starting with 0: a spreadsheet would drop the zero.
    static func hasLeadingZero(_ cell: String) -> Bool {
        cell.count > 1 && cell.first == "0" && cell.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// Text or plain CSV, for output that has no `--excel` (benchmarks): data commands render
    /// through ``FormatOption/render(_:)``.
    func render(_ format: OutputFormat) -> String {
        format == .csv ? renderCSV() : renderText()
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }
}
