import AuditLog
import Chronology
import Foundation
import Logging
import NIOCore
import PostgresNIO

/// The event log on PostgreSQL: the same promises as the file log (``AuditLog/EventStore``),
/// kept by the database, so several servers can share one log.
///
/// - Positions are gapless and in commit order: every append locks the single head row
///   (`SELECT … FOR UPDATE` on `itemaudit_log_head`) before it reads the last position, and
///   assigns its positions inside that transaction. The next append cannot read the head until
///   this one has committed (PostgreSQL makes a transaction visible before it releases its row
///   locks), so a later commit never holds a smaller position: a reader that saw position n saw
///   everything before it, and no subscriber has to guess at a high-water mark.
/// - Expected versions and command ids are checked under that lock and backed by constraints
///   (unique `(stream_id, stream_version)`, primary key `command_id`), also across servers.
/// - Each row keeps its chain hash (``AuditLog/RecordChain``); ``verify(progress:)`` recomputes it.
/// - Concurrent appends of one process are group-committed: one transaction, one WAL flush.
/// - An append returns after `COMMIT` succeeded: acknowledged means committed.
///
/// Reads block the calling thread on NIO futures (never on Swift's cooperative pool), page by
/// page, so memory stays bounded however long the log.
public final class PostgresEventStore: @unchecked Sendable {
    // @unchecked: `known` is guarded by `stateLock`; the group-commit queue by its own lock.

    /// Pool size, timeouts and page sizes.
    public struct Options: Sendable, Hashable {
        /// The most connections this store opens (appends use one at a time; reads, stream
        /// lookups and the subscription the others).
        public var poolSize: Int
        /// How long to wait for a connection (connect, or a free one from the pool).
        public var timeoutMilliseconds: Int
        /// Events fetched per round trip when reading the log in order. Small pages keep the
        /// connections' pages flowing while the caller works: the caller starts sooner, and each
        /// connection's next page is on its way while the caller folds the one before.
        public var readPageSize: Int
        /// The most events one group commit writes (larger groups are split).
        public var maxGroupEvents: Int
        /// How many connections one read of the log in order uses at most, each reading its
        /// own pages (only those free at the time: a read never waits for a second one).
        public var readConnections: Int

        public init(
            poolSize: Int = 8, timeoutMilliseconds: Int = 10_000, readPageSize: Int = 4_096,
            maxGroupEvents: Int = 20_000, readConnections: Int = 3
        ) {
            self.poolSize = poolSize
            self.timeoutMilliseconds = timeoutMilliseconds
            self.readPageSize = readPageSize
            self.maxGroupEvents = maxGroupEvents
            self.readConnections = readConnections
        }
    }

    /// The head as this process last saw it.
    struct Head: Sendable, Hashable {
        var position: UInt64
        var hash: [UInt8]
        var recordedAt: Int64
    }

    /// The database, without its password.
    public let url: PostgresStoreURL
    public let options: Options
    /// The schema version found on open and the version left.
    public let schema: (from: Int, to: Int)
    let pool: ConnectionPool
    let clock: any LogClock
    let logger: Logger
    let stateLock = NSLock()
    var known: Head
    var closed = false
    var observers: [Int: AsyncStream<UInt64>.Continuation] = [:]
    var nextObserver = 0
    let appends = AppendQueue()

    /// Connects to `url`, applies missing schema migrations and reads the log's head.
    /// Blocks the calling thread while it talks to the server.
    /// - Throws: ``PostgresLogError`` `.unreachable` (naming the URL without its password),
    ///   `.schemaTooNew`, `.migrationFailed`.
    public static func open(
        url: PostgresStoreURL, options: Options = .init(), clock: any LogClock = SystemClock(), logger: Logger
    ) throws -> PostgresEventStore {
        let pool = try ConnectionPool(
            url: url, maximum: options.poolSize, timeout: .milliseconds(Int64(options.timeoutMilliseconds)),
            logger: logger)
        let (outcome, head) = try pool.withConnection { connection in
            let outcome = try Migrations.run(on: connection, url: url, logger: logger)
            return (outcome, try readHead(connection, url: url, logger: logger))
        }
        logger.info(
            "opened the PostgreSQL event log",
            metadata: [
                "url": "\(url.redacted)", "lastPosition": "\(head.position)", "schema": "\(outcome.to)",
            ])
        return PostgresEventStore(
            url: url, options: options, schema: (outcome.from, outcome.to), pool: pool, clock: clock, logger: logger,
            head: head)
    }

    private init(
        url: PostgresStoreURL, options: Options, schema: (from: Int, to: Int), pool: ConnectionPool,
        clock: any LogClock, logger: Logger, head: Head
    ) {
        self.url = url
        self.options = options
        self.schema = schema
        self.pool = pool
        self.clock = clock
        self.logger = logger
        self.known = head
    }

    static func readHead(_ connection: PostgresConnection, url: PostgresStoreURL, logger: Logger) throws -> Head {
        let rows = try connection.query(
            "SELECT last_position, head_hash, last_recorded_at FROM itemaudit_log_head WHERE id = 1", logger: logger
        ).wait()
        for row in rows {
            let (position, hash, recordedAt) = try row.decode((Int64, ByteBuffer, Int64).self)
            return Head(position: UInt64(position), hash: Array(buffer: hash), recordedAt: recordedAt)
        }
        throw PostgresLogError(
            .queryFailed, "the head row of the log in \(url.redacted) is missing (restore it from a backup)",
            context: ["url": url.redacted])
    }

    /// Where the store is, for messages: the URL without its password.
    public var location: String { url.redacted }

    /// The last position this process knows of (see ``refresh()``).
    public var lastPosition: UInt64 { stateLock.withLock { known.position } }

    /// The canonical chain head at ``lastPosition``.
    public var headHash: String { RecordChain.hex(stateLock.withLock { known.hash }) }

    /// The recorded-at time of the last event known, or nil for an empty log.
    public var lastRecordedAt: Timestamp? {
        stateLock.withLock { known.position == 0 ? nil : Timestamp(microsecondsSinceEpoch: known.recordedAt) }
    }

    /// Opening a database store repairs nothing.
    public var openingNote: String? { nil }

    /// Moves the known head forward (never back) after a commit, a refresh or a notification.
    func learn(_ head: Head) {
        let observers = stateLock.withLock { () -> [AsyncStream<UInt64>.Continuation] in
            guard head.position > known.position else { return [] }
            known = head
            return Array(self.observers.values)
        }
        for observer in observers { observer.yield(head.position) }
    }

    /// The last position known now and after each advance, coalesced (a slow reader gets the
    /// newest). Appends of this process advance it; a ``PostgresLogSubscription`` adds the others'.
    public func observePositions() -> AsyncStream<UInt64> {
        let (stream, continuation) = AsyncStream.makeStream(of: UInt64.self, bufferingPolicy: .bufferingNewest(1))
        let id = stateLock.withLock {
            nextObserver += 1
            observers[nextObserver] = continuation
            continuation.yield(known.position)
            return nextObserver
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.stateLock.withLock { self.observers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Reads the head the database has now (appends by other servers included) and returns its position.
    public func refresh() async throws -> UInt64 {
        let head = try await pool.withConnection { connection in
            try await connection.query(
                "SELECT last_position, head_hash, last_recorded_at FROM itemaudit_log_head WHERE id = 1",
                logger: logger
            ).get()
        }
        for row in head.rows {
            let (position, hash, recordedAt) = try row.decode((Int64, ByteBuffer, Int64).self)
            learn(Head(position: UInt64(position), hash: Array(buffer: hash), recordedAt: recordedAt))
        }
        return lastPosition
    }

    /// Stops accepting appends and closes the connections.
    public func close() throws {
        let observers = stateLock.withLock {
            closed = true
            defer { self.observers = [:] }
            return self.observers.values
        }
        for observer in observers { observer.finish() }
        pool.close()
    }
}
