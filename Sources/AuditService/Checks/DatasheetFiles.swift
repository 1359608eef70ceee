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

    /// The start of a GDSN Catalogue Item Notification (declaration, root, document header).
    public static var cinHeader: String { CINWriter.header }

    /// One datasheet as a CIN `transaction` (ADD), and the attributes it could not carry, each
    /// "path: reason".
    public static func cinTransaction(_ datasheet: Datasheet, number: Int) -> (xml: String, notWritten: [String]) {
        let transaction = CINWriter.transaction(datasheet, number: number)
        return (transaction.xml, transaction.notWritten)
    }

    /// The end of a CIN message.
    public static var cinFooter: String { CINWriter.footer }
}
