import AuditLog
import Foundation
import Logging
import PostgresLog

/// Where the event log lives: the data directory's `log/` (the default), or a PostgreSQL database
/// that several servers share (`--store postgres://…` or `$ITEMAUDIT_STORE`).
///
/// With PostgreSQL the data directory still holds what is per server: the projections (SQLite),
/// the keys; photos go to the database's blob table so every server sees them.
public struct LogStoreLocation: Sendable, Hashable, CustomStringConvertible {
    /// The PostgreSQL URL as libpq writes it, or nil for the file log in the data directory.
    public var url: String?
    /// The most connections the store opens.
    public var poolSize: Int
    /// How long to wait for a connection, in milliseconds.
    public var timeoutMilliseconds: Int

    /// The file log in the data directory.
    public static let dataDirectory = LogStoreLocation(url: nil)

    public init(url: String?, poolSize: Int = 8, timeoutMilliseconds: Int = 10_000) {
        self.url = url.flatMap { $0.isEmpty ? nil : $0 }
        self.poolSize = poolSize
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    /// True when the log is in PostgreSQL.
    public var isPostgres: Bool { url != nil }

    /// The URL without its password, or "the data directory".
    public var description: String {
        guard let url else { return "the data directory" }
        return (try? PostgresStoreURL(url).redacted) ?? "a PostgreSQL URL"
    }

    /// Checks the URL without connecting.
    /// - Throws: ``AuditServiceError`` `.log` naming what is wrong with the URL.
    public func validate() throws {
        guard let url else { return }
        do { _ = try PostgresStoreURL(url) } catch let error as PostgresLogError {
            throw AuditServiceError(.log, error.message)
        }
    }

    /// Opens the PostgreSQL store (migrating its schema), or throws when this location is the
    /// data directory.
    func openPostgres(clock: any LogClock, logger: Logger) throws -> PostgresEventStore {
        guard let url else {
            throw AuditServiceError(.log, "no PostgreSQL URL given (pass --store postgres://…)")
        }
        do {
            let parsed = try PostgresStoreURL(url)
            return try PostgresEventStore.open(
                url: parsed, options: .init(poolSize: poolSize, timeoutMilliseconds: timeoutMilliseconds), clock: clock,
                logger: logger)
        } catch let error as PostgresLogError {
            let code: AuditServiceError.Code = error.code == .unreachable ? .storeUnavailable : .log
            throw AuditServiceError(code, error.message, context: error.context)
        }
    }
}
