import AuditLog
import NIOCore
import PostgresNIO

/// Content-addressed blobs (inspection photos) in the log's database: `itemaudit_blobs`, keyed by
/// the SHA-256 of the bytes as 64 lowercase hex digits. Every server sharing the log sees every
/// photo. A write returns after its `INSERT` committed. Calls block the calling thread.
public struct PostgresBlobStore: Sendable {
    let store: PostgresEventStore

    /// The blob table of `store`'s database (created by its migrations).
    public init(store: PostgresEventStore) { self.store = store }

    /// Stores `bytes` under `sha256` (which the caller has checked); false when it was already stored.
    /// - Throws: ``PostgresLogError`` `.unreachable` when the database is down (nothing stored).
    public func write(sha256: String, bytes: [UInt8]) throws -> Bool {
        let result = try run { connection in
            try connection.query(
                """
                INSERT INTO itemaudit_blobs (sha256, bytes) VALUES (\(sha256), \(ByteBuffer(bytes: bytes)))
                ON CONFLICT (sha256) DO NOTHING
                """, logger: store.logger
            ).wait()
        }
        return result.metadata.rows == 1
    }

    /// Whether a blob with this hash is stored (false, with a warning, when the database is down).
    public func contains(sha256: String) -> Bool {
        do {
            let rows = try run { connection in
                try connection.query(
                    "SELECT 1 FROM itemaudit_blobs WHERE sha256 = \(sha256)", logger: store.logger
                ).wait()
            }
            return !rows.isEmpty
        } catch {
            store.logger.warning("cannot look a photo up", metadata: ["error": "\(error)"])
            return false
        }
    }

    /// The stored bytes, or nil when none are stored under this hash (or the database is down).
    public func read(sha256: String) -> [UInt8]? {
        do {
            let rows = try run { connection in
                try connection.query(
                    "SELECT bytes FROM itemaudit_blobs WHERE sha256 = \(sha256)", logger: store.logger
                ).wait()
            }
            return try rows.first.map { Array(buffer: try $0.decode(ByteBuffer.self)) }
        } catch {
            store.logger.warning("cannot read a photo", metadata: ["error": "\(error)"])
            return nil
        }
    }

    private func run<R>(_ body: (PostgresConnection) throws -> R) throws -> R {
        do { return try store.pool.withConnection(body) } catch { throw store.readFailed(error) }
    }
}
