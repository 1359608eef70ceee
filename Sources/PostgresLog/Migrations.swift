import Logging
import NIOCore
import PostgresNIO

/// The versioned schema migrations in `Schemas/postgres/` (embedded by
/// tools/generate-postgres-migrations), applied in order when a store opens.
///
/// One transaction holds an advisory lock while it reads the applied version from
/// `itemaudit_schema_migrations` and applies what is missing, so servers starting together
/// migrate once; a failing migration leaves the schema as it was.
enum Migrations {
    /// The newest schema version this binary knows.
    static var latestVersion: Int { all.last?.version ?? 0 }

    /// The key of the advisory lock that serializes migrations across processes ("ITEMAUDT").
    static let lockKey: Int64 = 0x4954_454D_4155_4454

    /// What a run did: the version found and the version left.
    struct Outcome: Sendable, Hashable {
        var from: Int
        var to: Int
    }

    /// Brings the schema up to ``latestVersion`` on `connection`, blocking the calling thread.
    /// - Throws: ``PostgresLogError`` `.schemaTooNew` when the database is ahead of this binary,
    ///   `.migrationFailed` when a migration fails (nothing of it stays).
    static func run(on connection: PostgresConnection, url: PostgresStoreURL, logger: Logger) throws -> Outcome {
        func simple(_ sql: String) throws {
            for statement in SQLScript.statements(sql) {
                _ = try connection.query(PostgresQuery(unsafeSQL: statement), logger: logger).wait()
            }
        }
        do {
            try simple(
                """
                BEGIN;
                SELECT pg_advisory_xact_lock(\(lockKey));
                CREATE TABLE IF NOT EXISTS itemaudit_schema_migrations (
                    version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now());
                """)
        } catch {
            throw PostgresLogError(
                .migrationFailed,
                "cannot read the schema version of \(url.redacted): \(ConnectionPool.describe(error)) (check that the role may create tables in the database)",
                context: ["url": url.redacted])
        }
        do {
            let rows = try connection.query(
                "SELECT coalesce(max(version), 0)::int8 FROM itemaudit_schema_migrations", logger: logger
            ).wait()
            var current = 0
            for row in rows { current = Int(try row.decode(Int64.self)) }
            guard current <= latestVersion else {
                _ = try? connection.query("ROLLBACK", logger: logger).wait()
                throw PostgresLogError(
                    .schemaTooNew,
                    "the database at \(url.redacted) has schema version \(current) but this itemaudit knows versions up to \(latestVersion) (upgrade itemaudit; a newer one migrated this database)",
                    context: ["url": url.redacted, "schema": "\(current)", "known": "\(latestVersion)"])
            }
            for migration in all where migration.version > current {
                do {
                    try simple(migration.sql)
                } catch {
                    throw PostgresLogError(
                        .migrationFailed,
                        "migration \(migration.name) failed on \(url.redacted): \(ConnectionPool.describe(error)); nothing of it was applied",
                        context: ["url": url.redacted, "migration": migration.name])
                }
                _ = try connection.query(
                    "INSERT INTO itemaudit_schema_migrations (version, name) VALUES (\(migration.version), \(migration.name))",
                    logger: logger
                ).wait()
                logger.info(
                    "applied a schema migration",
                    metadata: ["url": "\(url.redacted)", "migration": "\(migration.name)"])
            }
            try simple("COMMIT")
            return Outcome(from: current, to: max(current, latestVersion))
        } catch {
            _ = try? connection.query("ROLLBACK", logger: logger).wait()
            if let error = error as? PostgresLogError { throw error }
            throw PostgresLogError(
                .migrationFailed,
                "cannot migrate the schema of \(url.redacted): \(ConnectionPool.describe(error))",
                context: ["url": url.redacted])
        }
    }
}
