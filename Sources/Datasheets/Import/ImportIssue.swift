/// A record that could not be imported (or a field of it), with where it is and what to do.
public struct ImportIssue: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file the record is in.
    public var file: String
    /// The 1-based line the record starts on; 0 for the file as a whole (it cannot be opened, or
    /// its type is unknown).
    public var line: Int
    /// The attribute or column concerned, when one is.
    public var field: String?
    /// What went wrong and what to do.
    public var message: String

    /// Creates a value from its parts.
    public init(file: String, line: Int, field: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.field = field
        self.message = message
    }

    /// `file:line: field: message` (`file: message` for the file as a whole).
    public var description: String {
        (line > 0 ? "\(file):\(line)" : file) + (field.map { ": \($0)" } ?? "") + ": \(message)"
    }
}

/// One item an importer yields: a datasheet (possibly with field-level issues) or a record it had to skip.
public enum ImportRecord: Sendable {
    /// A datasheet read from the file; `issues` lists fields that were dropped.
    case datasheet(Datasheet, issues: [ImportIssue])
    /// A record that could not be read at all; the importer continues with the next one.
    case failed(ImportIssue)
}
