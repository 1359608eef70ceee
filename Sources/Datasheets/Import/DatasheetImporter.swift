/// The file formats datasheets are imported from.
public enum DatasheetFormat: String, Sendable, CaseIterable {
    /// A JSON-LD document: one product, an array, or an `@graph`.
    case jsonld
    /// JSON Lines: one product object per line.
    case jsonl
    /// CSV with flat attribute paths as column names.
    case csv
    /// GDSN Catalogue Item Notification XML (BMS 3.1), as data pools send it.
    case xml

    /// The format the first bytes of a file show, for names that say none (pool exports come with
    /// other extensions): XML opens with `<` (after a byte order mark and white space).
    public init?(contentOf path: String) {
        guard path != "-", let reader = try? ChunkReader(path: path, chunkSize: 512) else { return nil }
        var first: UInt8?
        try? reader.forEachChunk { chunk in
            var index = 0
            if chunk.count >= 3, chunk[0] == 0xEF, chunk[1] == 0xBB, chunk[2] == 0xBF { index = 3 }
            while index < chunk.count, [0x20, 0x09, 0x0A, 0x0D].contains(chunk[index]) { index += 1 }
            if index < chunk.count { first = chunk[index] }
            return false
        }
        switch first {
        case UInt8(ascii: "<"): self = .xml
        default: return nil
        }
    }

    /// The format a file name's extension says (`.jsonld`/`.json`, `.jsonl`/`.ndjson`, `.csv`), if any.
    public init?(fileName: String) {
        let lower = fileName.lowercased()
        if lower.hasSuffix(".jsonl") || lower.hasSuffix(".ndjson") {
            self = .jsonl
        } else if lower.hasSuffix(".jsonld") || lower.hasSuffix(".json") {
            self = .jsonld
        } else if lower.hasSuffix(".csv") {
            self = .csv
        } else if lower.hasSuffix(".xml") {
            self = .xml
        } else {
            return nil
        }
    }
}

/// Imports datasheets from any supported file, choosing the importer by format.
public enum DatasheetImporter {
    /// Streams the records of a file (`-`: standard input) to `body` (return false to stop).
    /// Throws only when the file cannot be opened, its format is unknown, or it holds no records
    /// at all (empty, whitespace, or a CSV header alone: the same for every format); bad records
    /// arrive as `.failed`.
    public static func read(
        path: String, format: DatasheetFormat? = nil, _ body: (ImportRecord) -> Bool
    ) throws(ImportIssue) {
        guard let format = format ?? DatasheetFormat(fileName: path) ?? DatasheetFormat(contentOf: path) else {
            throw ImportIssue(
                file: path, line: 0,
                message: "unknown file type; name it .jsonld, .json, .jsonl, .ndjson, .csv or .xml (GDSN CIN)")
        }
        var records = 0
        let counted: (ImportRecord) -> Bool = { record in
            records += 1
            return body(record)
        }
        switch format {
        case .jsonld: try JSONLDImporter().read(path: path, counted)
        case .jsonl: try JSONLinesImporter().read(path: path, counted)
        case .csv: try CSVImporter().read(path: path, counted)
        case .xml: try CINImporter().read(path: path, counted)
        }
        if records == 0 {
            throw ImportIssue(
                file: path, line: 0,
                message:
                    "holds no datasheets (the file is empty, or a CSV has only its header row; give a file with products)"
            )
        }
    }

    /// Reads every record of a (small) file into memory: for tests and fixtures.
    public static func readAll(path: String, format: DatasheetFormat? = nil) throws(ImportIssue) -> [ImportRecord] {
        var records: [ImportRecord] = []
        try read(path: path, format: format) { record in
            records.append(record)
            return true
        }
        return records
    }
}
