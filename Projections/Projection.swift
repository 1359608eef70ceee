import GRDB
import Inspection

/// A read model folded from the log into SQLite tables it owns.
///
/// A projection names its tables and the SQL that creates them (its migrations, applied in
/// order on a fresh rebuild), and makes a ``ProjectionFold`` that turns events into rows. When
/// ``version`` differs from the version stored with the checkpoint, the runner drops the tables
/// and folds the whole log again: bump it whenever the fold or the schema changes.
public protocol Projection: Sendable {
    /// Stable name, used for the checkpoint and `replay --projection NAME`.
    var name: String { get }
    /// The version of the fold and schema; a change rebuilds the projection.
    var version: Int { get }
    /// Projections whose folds this one reads (they are caught up alongside it, and first).
    var dependencies: [String] { get }
    /// The tables (and virtual tables) the projection owns; dropped on rebuild.
    var tables: [String] { get }
    /// The SQL statements that create the schema, in order.
    var migrations: [String] { get }
    /// The event types the fold reads; nil for all. Others are not passed to it.
    var eventTypes: Set<String>? { get }
    /// A fold that continues from what the tables hold now.
    func makeFold(_ db: Database, context: FoldContext) throws -> any ProjectionFold
}

extension Projection {
    /// Every event type by default.
    public var eventTypes: Set<String>? { nil }
}

/// The stateful part of a projection during one run: events in, rows out.
///
/// A fold runs on the runner's folding thread and never touches the database itself: it writes
/// through ``WriteStatement``s made with ``FoldContext/writeStatement(_:_:)`` (queued for the
/// database thread) and reads with ``FoldContext/read(_:)``. `apply` may keep changes in memory;
/// `flush` queues them in the chunk's transaction, just before the checkpoint. After a flush the
/// fold may drop what it keeps in memory and read it back on demand, so memory stays bounded
/// whatever the log's size.
public protocol ProjectionFold: AnyObject {
    /// Folds an event about an allocated task (most of the log); `task` holds its facts and the
    /// folds' state for it. Events about a task never allocated are not passed on.
    func apply(_ event: TaskEvent, _ envelope: EventEnvelope, _ task: TaskRecord) throws
    /// Folds any other event: allocations, batch transitions and reference data.
    func apply(_ event: InspectionEvent, _ envelope: EventEnvelope) throws
    /// Queues everything held in memory; the chunk's checkpoint will be `position`.
    func flush(at position: UInt64) throws
}

extension ProjectionFold {
    /// Task events change nothing by default.
    public func apply(_ event: TaskEvent, _ envelope: EventEnvelope, _ task: TaskRecord) throws {}
}

/// What a fold is told about an event besides its payload: the log's envelope.
public struct EventEnvelope: Sendable, Hashable {
    /// Global position in the log.
    public var position: UInt64
    /// Server time, microseconds since the epoch.
    public var recordedAt: Int64
    /// Device time, microseconds since the epoch.
    public var occurredAt: Int64

    public init(position: UInt64, recordedAt: Int64, occurredAt: Int64) {
        self.position = position
        self.recordedAt = recordedAt
        self.occurredAt = occurredAt
    }
}

/// What the folds of one run share: the task directory, and the way to the database (writes
/// queued for its thread, reads answered on it).
public final class FoldContext {
    /// Tasks by id: batch, inspector, location, GTIN, mode. Made by ``BatchProjection``.
    public internal(set) var directory: TaskDirectory?
    /// The run's attribute paths by number (``TaskEvent/path``), as far as the log has been read.
    public internal(set) var paths = AttributePaths()
    /// The checkpoint of the fold being made: it continues after this position.
    public internal(set) var checkpoint: UInt64 = 0
    /// How many rows a fold keeps in memory per working set before it forgets them after a flush.
    public let workingSetLimit: Int
    /// Where the folds' writes go: to the database thread, in order.
    let writes: WriteQueue

    init(workingSetLimit: Int, writes: WriteQueue) {
        self.workingSetLimit = max(1, workingSetLimit)
        self.writes = writes
    }

    /// A write statement that runs through ``writes``.
    func writeStatement(_ db: Database, _ sql: String) throws -> WriteStatement {
        try WriteStatement(db, sql, queue: writes)
    }

    /// Reads the database (on its thread, once everything queued before has been written): folds
    /// run on another thread and never touch the database themselves.
    func read<T>(_ body: (Database) throws -> T) throws -> T { try writes.read(body) }
}
