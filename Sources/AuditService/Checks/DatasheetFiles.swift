import Datasheets

/// Datasheet files for the CLI's `datasheets show` and `convert`: read in any supported format
/// (GDSN CIN XML included) and written back as GS1 Web Vocabulary JSON-LD.
public enum DatasheetFiles {
    /// One record of a file: a datasheet with the fields it could not take, or why it was skipped.
    public typealias Record = ImportRecord

    /// Streams the records of `path` to `body` (see ``DatasheetImporter/read(path:format:_:)``).
    public static func read(path: String, _ body: (Record) -> Bool) throws(ImportIssue) {
        try DatasheetImporter.read(path: path, body)
    }

    /// The datasheet as one JSON-LD object on one line, the shape the JSON-LD importer reads.
    public static func jsonLine(_ datasheet: Datasheet) -> String { DatasheetJSONWriter.jsonLine(datasheet) }
}
