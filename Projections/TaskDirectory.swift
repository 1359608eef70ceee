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
}

/// Task facts by id: a bounded in-memory cache over the `task_directory` table.
///
/// Rows are inserted as allocations are folded (inside the runner's transaction), so a miss is
/// one primary-key read; the cache is cleared whenever it outgrows its capacity.
public final class TaskDirectory {
    private var cache: [String: TaskFacts] = [:]
    private let capacity: Int

    init(capacity: Int = 100_000) { self.capacity = capacity }

    /// The facts of `taskID`, from memory or the table; nil for a task never allocated.
    public func facts(_ taskID: String, _ db: Database) throws -> TaskFacts? {
        if let facts = cache[taskID] { return facts }
        let statement = try db.cachedStatement(
            sql: "SELECT batch, inspector, location, gtin, mode, allocated_at FROM task_directory WHERE task = ?")
        guard let row = try Row.fetchOne(statement, arguments: [taskID]) else { return nil }
        let facts = TaskFacts(
            taskID: taskID, batchID: row[0], inspectorID: row[1], locationID: row[2], gtin: row[3], mode: row[4],
            allocatedAt: row[5])
        remember(facts)
        return facts
    }

    func insert(_ facts: TaskFacts, _ db: Database) throws {
        let statement = try db.cachedStatement(
            sql: """
                INSERT OR REPLACE INTO task_directory (task, batch, inspector, location, gtin, mode, allocated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """)
        try statement.execute(arguments: [
            facts.taskID, facts.batchID, facts.inspectorID, facts.locationID, facts.gtin, facts.mode,
            facts.allocatedAt,
        ])
        remember(facts)
    }

    private func remember(_ facts: TaskFacts) {
        if cache.count >= capacity { cache.removeAll(keepingCapacity: true) }
        cache[facts.taskID] = facts
    }
}

/// The task directory: immutable facts of every allocated task, which other folds look up.
public struct TaskDirectoryProjection: Projection {
    public init() {}
    public var name: String { "directory" }
    public var version: Int { 1 }
    public var dependencies: [String] { [] }
    public var tables: [String] { ["task_directory"] }
    public var migrations: [String] {
        [
            """
            CREATE TABLE task_directory (
              task TEXT PRIMARY KEY, batch TEXT NOT NULL, inspector TEXT NOT NULL, location TEXT NOT NULL,
              gtin TEXT NOT NULL, mode INTEGER NOT NULL, allocated_at INTEGER NOT NULL) WITHOUT ROWID
            """
        ]
    }

    public func makeFold(_ db: Database, context: FoldContext) throws -> any ProjectionFold {
        let directory = TaskDirectory()
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
                            allocatedAt: envelope.occurredAt), db)
                }
            case .adHocTaskAllocated(let task):
                try directory.insert(
                    TaskFacts(
                        taskID: task.taskID, batchID: "", inspectorID: task.inspectorID, locationID: task.locationID,
                        gtin: task.gtin, mode: InspectionMode.adHoc.rawValue, allocatedAt: envelope.occurredAt), db)
            default:
                break
            }
        }

        func flush(_ db: Database) throws {}
    }
}
