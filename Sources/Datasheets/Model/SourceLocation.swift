/// Where a datasheet or a problem came from: a file and a 1-based line.
public struct SourceLocation: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The file.
    public var file: String
    /// The line.
    public var line: Int

    /// Creates a value from its parts.
    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    /// `file:line`, the form reports print.
    public var description: String { "\(file):\(line)" }
}
