import GRDB
import Inspection

/// A read model that does not need the fast engine: it folds whole events one by one with plain
/// GRDB — its schema from a `DatabaseMigrator`, its rows as `FetchableRecord` /
/// `PersistableRecord` values — inside the runner's transactions, so its checkpoint is exact like
/// every other projection's.
///
/// Use it for read models fed by the few events that are not about a single task (registrations,
/// allocations, batch transitions); task events, the bulk of the log, stay with the fast folds.
/// What it needs from elsewhere comes in as an explicit argument, never through shared state.
/// Add one to ``ProjectionCatalog/all`` wrapped in ``PlainProjectionAdapter``.
public protocol PlainProjection: Sendable {
    /// Stable name (checkpoint, `replay --projection NAME`, the prefix of its migrations).
    var name: String { get }
    /// Bump it when the fold or the schema changes: the tables are dropped and refolded.
    var version: Int { get }
    /// The event types the fold reads (only whole events: no task events).
    var eventTypes: Set<String> { get }
    /// The tables it owns (dropped on a rebuild).
    var tables: [String] { get }
    /// Registers the migrations that create its schema (identifiers are prefixed with ``name``).
    func registerMigrations(in migrator: inout DatabaseMigrator)
    /// Folds one event into the tables, inside the transaction of its chunk.
    func apply(_ event: InspectionEvent, _ envelope: EventEnvelope, _ db: Database) throws
}

/// A ``PlainProjection`` run by the ``ProjectionRunner`` like any other projection: its events
/// are kept per chunk and folded on the database thread when the chunk is flushed, just before
/// the checkpoint, in the same transaction.
public struct PlainProjectionAdapter: Projection {
    /// The read model.
    public let plain: any PlainProjection

    /// Runs `plain` through the runner.
    public init(_ plain: any PlainProjection) { self.plain = plain }

    public var name: String { plain.name }
    public var version: Int { plain.version }
    public var dependencies: [String] { [] }
    public var tables: [String] { plain.tables }
    /// Empty: the schema comes from the migrator (see ``migrate(_:)``).
    public var migrations: [String] { [] }
    public var eventTypes: Set<String>? { plain.eventTypes }

    /// The migrator of the read model's schema.
    var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        plain.registerMigrations(in: &migrator)
        return migrator
    }

    /// Brings the schema up to date, dropping and recreating it first when ``version`` changed
    /// (then the checkpoint starts over at 0, so the runner refolds the whole log). Returns
    /// whether it did.
    func migrate(_ store: ProjectionStore) throws -> Bool {
        let rebuilt = try store.database.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS projection_checkpoint (
                      name TEXT PRIMARY KEY, version INTEGER NOT NULL, position INTEGER NOT NULL)
                    """)
            let stored = try Int.fetchOne(
                db, sql: "SELECT version FROM projection_checkpoint WHERE name = ?", arguments: [name])
            guard stored != version else { return false }
            for table in tables { try db.execute(sql: "DROP TABLE IF EXISTS \(table)") }
            if try db.tableExists("grdb_migrations") {
                // Only this read model's own migrations: `appliedIdentifiers` would also list
                // every other plain projection's, whose tables would then be created again.
                let applied = try migrator.appliedMigrations(db)
                for identifier in applied {
                    try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = ?", arguments: [identifier])
                }
            }
            try db.execute(
                sql: "INSERT OR REPLACE INTO projection_checkpoint (name, version, position) VALUES (?, ?, 0)",
                arguments: [name, version])
            return true
        }
        try migrator.migrate(store.database)
        return rebuilt
    }

    public func makeFold(_ db: Database, context: FoldContext) throws -> any ProjectionFold {
        PlainFold(plain, context: context)
    }
}

/// Keeps a chunk's events and folds them on the database thread at the flush.
final class PlainFold: ProjectionFold {
    private let plain: any PlainProjection
    private let context: FoldContext
    private var pending: [(InspectionEvent, EventEnvelope)] = []

    init(_ plain: any PlainProjection, context: FoldContext) {
        self.plain = plain
        self.context = context
    }

    func apply(_ event: InspectionEvent, _ envelope: EventEnvelope) throws {
        pending.append((event, envelope))
    }

    func flush(at position: UInt64) throws {
        guard !pending.isEmpty else { return }
        let events = pending
        pending.removeAll(keepingCapacity: true)
        try context.read { db in
            for (event, envelope) in events { try plain.apply(event, envelope, db) }
        }
    }
}
