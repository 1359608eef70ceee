/// Imports CSV: one product per row, the first row names the columns with flat attribute paths.
///
/// Conventions (the same as the flat view, `Datasheet.flat`):
/// - a column is a GS1 Web Vocabulary term (`gtin`, `netContent`; `gs1:` prefixes are removed) or a
///   path into a list item (`hasAllergen[AM].allergenLevelOfContainmentCode`) or a language
///   (`productName@fi`);
/// - a quantity is the number, a space and the UN/ECE Rec 20 unit: `500 GRM`, `1500 KJO|358 E14`;
/// - several values of one attribute are separated by `|`;
/// - code values may be written bare (`CONTAINS`) or as `gs1:LevelOfContainmentCode-CONTAINS`;
/// - an empty cell means the attribute is absent; RFC 4180 quoting (`"a, b"`, `""` for a quote),
///   quoted cells may span lines; the separator is `,` (or `;` when the header has no comma).
public struct CSVImporter: Sendable {
    /// Creates a value from its parts.
    public init() {}

    /// Reads `path` and calls `body` with each row's record; stops when `body` returns false.
    public func read(path: String, _ body: (ImportRecord) -> Bool) throws(ImportIssue) {
        let reader = try ChunkReader(path: path)
        var parser = RowParser()
        var header: [String]?
        // Columns that are no vocabulary term: reported once, with the file's first datasheet.
        var headerIssues: [ImportIssue] = []
        var stop = false
        func handle(_ row: [String], line: Int, badByte: (offset: Int, byte: UInt8)?) {
            if let badByte {
                stop = !body(
                    .failed(
                        ImportIssue(
                            file: path, line: line,
                            message: UTF8Validator.message(offset: badByte.offset, byte: badByte.byte))))
            }
            guard let columns = header else {
                header = row.map { Self.columnPath($0) }
                headerIssues = Self.unknownColumns(header ?? [], file: path, line: line)
                return
            }
            if badByte != nil { return }
            if row.count == 1, row[0].isEmpty { return }
            guard row.count == columns.count else {
                stop = !body(
                    .failed(
                        ImportIssue(
                            file: path, line: line,
                            message:
                                "the row has \(row.count) cells but the header has \(columns.count); quote cells that contain the separator"
                        )))
                return
            }
            var attributes: [Attribute] = []
            attributes.reserveCapacity(columns.count)
            for (column, cell) in zip(columns, row) where !cell.isEmpty && !column.isEmpty {
                attributes.append(Attribute(path: column, value: Self.cellValue(cell)))
            }
            stop = !body(
                .datasheet(
                    Datasheet(attributes: attributes, source: SourceLocation(file: path, line: line)),
                    issues: headerIssues))
            headerIssues = []
        }
        try reader.forEachChunk { chunk throws(ImportIssue) in
            for byte in chunk {
                if parser.separator == nil, header == nil, byte == UInt8(ascii: ";") { parser.semicolonSeen = true }
                if let (row, line, badByte) = parser.feed(byte) {
                    handle(row, line: line, badByte: badByte)
                    if stop { return false }
                }
            }
            return true
        }
        if !stop, let (row, line, badByte) = parser.finish() { handle(row, line: line, badByte: badByte) }
        if !stop, parser.unterminatedQuote {
            _ = body(
                .failed(
                    ImportIssue(
                        file: path, line: parser.rowLine,
                        message: "a quoted cell is never closed; add the closing quote")))
        }
    }

    /// One issue per column whose name is no vocabulary term, suggesting the nearest term.
    static func unknownColumns(_ columns: [String], file: String, line: Int) -> [ImportIssue] {
        columns.filter { !$0.isEmpty && VocabularyTerms.unknownTerm(in: $0) != nil }.map { column in
            let hint = VocabularyTerms.suggestion(for: column).map { "did you mean \($0)?" } ?? "check the spelling"
            return ImportIssue(
                file: file, line: line, field: column,
                message: "not a GS1 Web Vocabulary term, so no rule reads this column (\(hint))")
        }
    }

    static func columnPath(_ header: String) -> String {
        var text = header.trimmingSpaces()
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        if text.hasPrefix("gs1:") { text.removeFirst(4) }
        if text.hasPrefix("https://gs1.org/voc/") { text.removeFirst(20) }
        return text
    }

    static func cellValue(_ cell: String) -> String {
        guard cell.contains("gs1:") || cell.contains("gs1.org/voc/") else { return cell }
        return cell.split(separator: "|", omittingEmptySubsequences: false).map {
            ProductFlattener.code(String($0).trimmingSpaces())
        }.joined(separator: "|")
    }

    /// Splits CSV bytes into rows of cells (RFC 4180), tracking the line each row starts on.
    struct RowParser {
        var separator: UInt8?
        var semicolonSeen = false
        private var cells: [String] = []
        private var cell: [UInt8] = []
        private var inQuotes = false
        private var quoteJustClosed = false
        private var line = 1
        private(set) var rowLine = 1
        private var sawAnything = false
        /// The file offset of the next byte, and the first byte of this row that is not UTF-8.
        private var offset = 0
        private var validator = UTF8Validator()
        private var badByte: (offset: Int, byte: UInt8)?

        var unterminatedQuote: Bool { inQuotes }

        /// A completed row: its cells, the line it starts on, and its first byte that is not UTF-8.
        typealias Row = ([String], Int, (offset: Int, byte: UInt8)?)

        mutating func feed(_ byte: UInt8) -> Row? {
            if byte >= 0x80 || validator.inSequence, let bad = validator.feed(byte, at: offset), badByte == nil {
                badByte = bad
            }
            offset += 1
            if byte == 0x0A { line += 1 }
            if inQuotes {
                if byte == UInt8(ascii: "\"") {
                    inQuotes = false
                    quoteJustClosed = true
                } else {
                    cell.append(byte)
                }
                return nil
            }
            let separator = self.separator ?? UInt8(ascii: ",")
            switch byte {
            case UInt8(ascii: "\""):
                if quoteJustClosed { cell.append(byte) }
                inQuotes = true
                quoteJustClosed = false
                sawAnything = true
            case UInt8(ascii: ","), UInt8(ascii: ";"):
                if self.separator == nil {
                    self.separator = byte == UInt8(ascii: ";") && !cells.isEmpty ? byte : UInt8(ascii: ",")
                }
                if byte == (self.separator ?? separator) {
                    endCell()
                } else {
                    cell.append(byte)
                }
                sawAnything = true
            case 0x0D:
                break
            case 0x0A:
                guard sawAnything else {
                    rowLine = line
                    return nil
                }
                return endRow()
            default:
                cell.append(byte)
                quoteJustClosed = false
                sawAnything = true
            }
            return nil
        }

        private mutating func endCell() {
            cells.append(String(decoding: cell, as: UTF8.self))
            cell.removeAll(keepingCapacity: true)
            quoteJustClosed = false
        }

        private mutating func endRow() -> Row {
            endCell()
            if separator == nil { separator = UInt8(ascii: ",") }
            let row = cells
            let start = rowLine
            let bad = badByte
            cells.removeAll(keepingCapacity: true)
            rowLine = line
            sawAnything = false
            badByte = nil
            return (row, start, bad)
        }

        mutating func finish() -> Row? {
            if let bad = validator.finish(), badByte == nil { badByte = bad }
            guard sawAnything, !inQuotes else { return nil }
            return endRow()
        }
    }
}

extension String {
    func trimmingSpaces() -> String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" || last == "\r" { slice.removeLast() }
        return String(slice)
    }
}
