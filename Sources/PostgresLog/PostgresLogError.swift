/// Why opening or using the PostgreSQL store failed: a code, a message saying what to do, and context.
///
/// Conflicts, reused command ids and bad arguments are ``AuditLog/EventLogError``s, as in the file
/// log, so callers handle both stores alike; this type covers what only a database can do.
public struct PostgresLogError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: String, Sendable, Hashable {
        /// The store URL cannot be parsed.
        case badURL
        /// The database cannot be reached or refused the login.
        case unreachable
        /// The database's schema is newer than this binary knows.
        case schemaTooNew
        /// A schema migration failed; nothing of it was applied.
        case migrationFailed
        /// A query failed (the message carries the database's own text).
        case queryFailed
        /// The connection broke while a commit was in flight: the append may or may not be recorded.
        case commitUnknown
    }

    public var code: Code
    /// What went wrong and what to do, in one sentence.
    public var message: String
    /// Where: the URL (without password), the schema versions, the statement.
    public var context: [String: String]

    public init(_ code: Code, _ message: String, context: [String: String] = [:]) {
        self.code = code
        self.message = message
        self.context = context
    }

    public var description: String { message }
}
