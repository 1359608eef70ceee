import GRDB
import Inspection

/// What never changes about a task once it is allocated.
public struct TaskFacts: Sendable, Hashable {
    /// The task id.
    public var taskID: String
    /// The batch, or "" for an ad-hoc task.
    public var batchID: String
    /// Who holds it.
    public var inspectorID: String
    /// Where the product is collected or inspected.
    public var locationID: String
    /// The product's GTIN-14.
    public var gtin: String
    /// The inspection mode (``InspectionMode`` raw value).
    public var mode: Int
    /// When it was allocated (occurred-at, µs).
    public var allocatedAt: Int64
    /// The log position of its allocation.
    public var position: UInt64
}

/// One task's facts, shared by reference: folds read its fields without copying every string.
final class TaskRecord {
    let facts: TaskFacts
    init(_ facts: TaskFacts) { self.facts = facts }
}

/// Task facts by id: a bounded in-memory cache over the `task_directory` table.
///
/// Rows are inserted as allocations are folded (inside the runner's transaction), so a miss is
/// one primary-key read; the cache is cleared whenever it outgrows its capacity.
public final class TaskDirectory {
    private var cache: [String: TaskRecord] = [:]
    /// The cache before it last filled up: recent tasks found here move back into ``cache``.
    private var previous: [String: TaskRecord] = [:]
    private let capacity: Int
    private let select: Statement
    private let insertStatement: WriteStatement
    /// Folds ask about the same task one after the other: the last answer is kept.
    private var last: TaskRecord?

    init(_ db: Database, capacity: Int = 100_000) throws {
        self.capacity = capacity
        select = try db.makeStatement(
            sql:
                "SELECT batch, inspector, location, gtin, mode, allocated_at, position FROM task_directory WHERE task = ?"
        )
        insertStatement = try WriteStatement(
            db,
            """
            INSERT OR REPLACE INTO task_directory (task, batch, inspector, location, gtin, mode, allocated_at,
              position)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
    }

    /// The facts of `taskID`, from memory or the table; nil for a task never allocated.
    public func facts(_ taskID: String, _ db: Database) throws -> TaskFacts? {
        try record(taskID, db)?.facts
    }

    /// Like ``facts(_:_:)`` without copying the facts: the hot path of the folds.
    func record(_ taskID: String, _ db: Database) throws -> TaskRecord? {
        if let last, last.facts.taskID == taskID { return last }
        if let record = cache[taskID] {
            last = record
            return record
        }
        if let record = previous[taskID] { return remember(record) }
        guard let row = try Row.fetchOne(select, arguments: [taskID]) else { return nil }
        let facts = TaskFacts(
            taskID: taskID, batchID: row[0], inspectorID: row[1], locationID: row[2], gtin: row[3], mode: row[4],
            allocatedAt: row[5], position: UInt64(row[6] as Int64))
        return remember(facts)
    }

    func insert(_ facts: TaskFacts) throws {
        try insertStatement.execute(
            .text(facts.taskID), .text(facts.batchID), .text(facts.inspectorID), .text(facts.locationID),
            .text(facts.gtin), .int(facts.mode), .integer(facts.allocatedAt),
            .integer(Int64(facts.position)))
        remember(facts)
    }

    @discardableResult
    private func remember(_ facts: TaskFacts) -> TaskRecord { remember(TaskRecord(facts)) }

    /// Keeps `record`; a full cache becomes ``previous`` and a new one starts (at most twice the
    /// capacity is held).
    private func remember(_ record: TaskRecord) -> TaskRecord {
        if cache.count >= capacity {
            swap(&cache, &previous)
            cache.removeAll(keepingCapacity: true)
        }
        cache[record.facts.taskID] = record
        last = record
        return record
    }
}

/// The task directory: immutable facts of every allocated task, which other folds look up.
public struct TaskDirectoryProjection: Projection {
    public init() {}
    public var name: String { "directory" }
    public var version: Int { 1 }
    public var eventTypes: Set<String>? { ["BatchAllocated", "AdHocTaskAllocated"] }
    public var dependencies: [String] { [] }
    public var tables: [String] { ["task_directory"] }
    public var migrations: [String] {
        [
            """
            CREATE TABLE task_directory (
              task TEXT PRIMARY KEY, batch TEXT NOT NULL, inspector TEXT NOT NULL, location TEXT NOT NULL,
              gtin TEXT NOT NULL, mode INTEGER NOT NULL, allocated_at INTEGER NOT NULL,
              position INTEGER NOT NULL) WITHOUT ROWID
            """
        ]
    }

    public func makeFold(_ db: Database, context: FoldContext) throws -> any ProjectionFold {
        let directory = try TaskDirectory(db, capacity: context.workingSetLimit)
        context.directory = directory
        return Fold(directory: directory)
    }

    final class Fold: ProjectionFold {
        let directory: TaskDirectory
        init(directory: TaskDirectory) { self.directory = directory }

        func apply(_ event: InspectionEvent, _ envelope: EventEnvelope, _ db: Database) throws {
            switch event {
            case .batchAllocated(let batch):
                for task in batch.tasks {
                    try directory.insert(
                        TaskFacts(
                            taskID: task.taskID, batchID: batch.batchID, inspectorID: batch.inspectorID,
                            locationID: batch.locationID, gtin: task.gtin, mode: batch.mode.rawValue,
                            allocatedAt: envelope.occurredAt, position: envelope.position))
                }
            case .adHocTaskAllocated(let task):
                try directory.insert(
                    TaskFacts(
                        taskID: task.taskID, batchID: "", inspectorID: task.inspectorID, locationID: task.locationID,
                        gtin: task.gtin, mode: InspectionMode.adHoc.rawValue, allocatedAt: envelope.occurredAt,
                        position: envelope.position))
            default:
                break
            }
        }

        func flush(_ db: Database, at position: UInt64) throws {}
    }
}
