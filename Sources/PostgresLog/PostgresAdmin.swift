import Logging
import NIOCore
import PostgresNIO

/// Database-level chores for benchmarks and tests: scratch databases on a cluster, and plain SQL.
/// Each call opens one connection, blocks the calling thread, and closes it.
public enum PostgresAdmin {
    /// Creates the database `name` on `url`'s cluster and returns its URL.
    /// - Throws: ``PostgresLogError`` `.unreachable` or `.queryFailed` (an existing name, say).
    public static func createDatabase(_ name: String, on url: PostgresStoreURL, logger: Logger) throws
        -> PostgresStoreURL
    {
        try execute("CREATE DATABASE \(quoted(name))", on: url, logger: logger)
        var created = url
        created.database = name
        return created
    }

    /// Drops the database `name` on `url`'s cluster (closing its other sessions first), if it exists.
    public static func dropDatabase(_ name: String, on url: PostgresStoreURL, logger: Logger) throws {
        try execute("DROP DATABASE IF EXISTS \(quoted(name)) WITH (FORCE)", on: url, logger: logger)
    }

    /// Runs `sql` (one or more statements, no parameters) on `url`.
    public static func execute(_ sql: String, on url: PostgresStoreURL, logger: Logger) throws {
        try withConnection(to: url, logger: logger) { connection in
            for statement in SQLScript.statements(sql) {
                _ = try connection.query(PostgresQuery(unsafeSQL: statement), logger: logger).wait()
            }
        }
    }

    /// The rows `sql` (one statement) returns, each column's bytes as text (NULL as nil; numbers
    /// come in binary, so cast them to text in the statement).
    public static func rows(_ sql: String, on url: PostgresStoreURL, logger: Logger) throws -> [[String?]] {
        try withConnection(to: url, logger: logger) { connection in
            try connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).wait().map { row in
                row.map { cell in cell.bytes.map { String(buffer: $0) } }
            }
        }
    }

    /// `body` on one connection to `url`, closed after; a failure other than the pool's own as
    /// ``PostgresLogError`` `.queryFailed`.
    private static func withConnection<T>(
        to url: PostgresStoreURL, logger: Logger, _ body: (PostgresConnection) throws -> T
    ) throws -> T {
        let pool = try ConnectionPool(url: url, maximum: 1, timeout: .seconds(10), logger: logger)
        defer { pool.close() }
        do {
            return try pool.withConnection(body)
        } catch let error as PostgresLogError {
            throw error
        } catch {
            throw PostgresLogError(
                .queryFailed, "\(url.redacted) refused a statement: \(ConnectionPool.describe(error))",
                context: ["url": url.redacted])
        }
    }

    /// `name` as a quoted SQL identifier.
    static func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
}
