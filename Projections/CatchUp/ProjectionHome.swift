import Foundation

/// Where a data directory keeps its projection database: the directory (to tell whether it can
/// be written) and the database file inside it. The data directory's layout names both.
public struct ProjectionHome: Sendable, Hashable {
    /// The data directory.
    public var dataDirectory: URL
    /// The projection database inside it.
    public var database: URL

    public init(dataDirectory: URL, database: URL) {
        self.dataDirectory = dataDirectory
        self.database = database
    }
}
