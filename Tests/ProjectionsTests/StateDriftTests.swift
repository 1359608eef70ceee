import AuditLog
import AuditService
import Foundation
import GRDB
import Inspection
import Logging
import Projections
import SampleData
import TestSupport
import Testing

/// The batch projection and `InspectionState` follow the same progress rules: after a generated
/// history, every batch and task row holds what the in-memory state holds. A rule changed on one
/// side only (`isResolved`, the derived batch status, a transition) shows up here.
@Suite("State drift: batch projection against InspectionState")
struct StateDriftTests {
    struct BatchFacts: Hashable, CustomStringConvertible {
        var id: String
        var status: Int
        var paused: Bool
        var expired: Bool
        var taskIDs: [String]
        var description: String { "batch \(id): status \(status) paused \(paused) expired \(expired) tasks \(taskIDs)" }
    }

    struct TaskFacts: Hashable, CustomStringConvertible {
        var id: String
        var batchID: String
        var collection: Int
        var skipReason: Int?
        var inspection: Int?
        var phase: Int
        var counts: [Int]
        var photos: Int
        var description: String {
            "task \(id) (\(batchID)): collection \(collection) skip \(skipReason.map(String.init) ?? "-") "
                + "inspection \(inspection.map(String.init) ?? "-") phase \(phase) counts \(counts) photos \(photos)"
        }
    }

    /// A generated history (through the real command path) and the state it folded to.
    static func history(seed: UInt64, in directory: URL) async throws -> InspectionState {
        let configuration = WorkloadGenerator.Configuration(
            seed: seed, inspectors: 4, locations: 5, products: 250, days: 12)
        let generator = WorkloadGenerator(configuration: configuration)
        let clock = generator.makeClock()
        let service = try await AuditService.open(dataDirectory: directory, clock: clock, logger: quietLogger)
        let report = try await generator.run(service: service, clock: clock)
        // The history must reach every corner of the state machine the rules decide.
        #expect(report.cancelled + report.expired > 0 && report.submitted > 0 && report.inspected > 0)
        let state = await service.state
        try await service.close()
        return state
    }

    static func expected(_ state: InspectionState) -> (batches: [BatchFacts], tasks: [TaskFacts]) {
        let batches = state.batches.values.map {
            BatchFacts(
                id: $0.id, status: $0.status.rawValue, paused: $0.collectionPaused, expired: $0.expired,
                taskIDs: $0.taskIDs)
        }
        let tasks = state.tasks.values.map {
            TaskFacts(
                id: $0.id, batchID: $0.batchID ?? "", collection: $0.collectionStatus.rawValue,
                skipReason: $0.skipReason?.rawValue, inspection: $0.inspectionStatus?.rawValue,
                phase: $0.phase.rawValue, counts: [$0.passedCount, $0.warningCount, $0.failureCount, $0.unableCount],
                photos: $0.photos.count)
        }
        return (batches.sorted { $0.id < $1.id }, tasks.sorted { $0.id < $1.id })
    }

    static func projected(_ store: ProjectionStore) throws -> (batches: [BatchFacts], tasks: [TaskFacts]) {
        try store.database.read { db in
            let batchRows = try Row.fetchAll(db, sql: "SELECT * FROM batch ORDER BY id")
            let taskRows = try Row.fetchAll(db, sql: "SELECT * FROM task ORDER BY task")
            // A batch's tasks in allocation order, as the batch_task rows list them.
            var tasksOfBatch: [String: [String]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT batch, task FROM batch_task ORDER BY batch, ordinal") {
                tasksOfBatch[row["batch"], default: []].append(row["task"])
            }
            let batches = batchRows.map { row in
                let id: String = row["id"]
                return BatchFacts(
                    id: id, status: row["status"], paused: row["paused"], expired: row["expired"],
                    taskIDs: tasksOfBatch[id] ?? [])
            }
            let tasks = taskRows.map { row in
                TaskFacts(
                    id: row["task"], batchID: row["batch"], collection: row["collection"],
                    skipReason: row["skip_reason"],
                    inspection: row["inspection"], phase: row["phase"],
                    counts: [row["passed"], row["warning"], row["failure"], row["unable"]], photos: row["photos"])
            }
            return (batches, tasks)
        }
    }

    /// The rows that differ between the projection and the state, described.
    static func differences(_ store: ProjectionStore, _ state: InspectionState) throws -> [String] {
        let expected = Self.expected(state)
        let projected = try Self.projected(store)
        let stateBatches = Dictionary(uniqueKeysWithValues: expected.batches.map { ($0.id, $0) })
        let stateTasks = Dictionary(uniqueKeysWithValues: expected.tasks.map { ($0.id, $0) })
        var differences: [String] = []
        if projected.batches.count != expected.batches.count || projected.tasks.count != expected.tasks.count {
            differences.append(
                "projection has \(projected.batches.count) batches and \(projected.tasks.count) tasks, "
                    + "state \(expected.batches.count) and \(expected.tasks.count)")
        }
        for batch in projected.batches where stateBatches[batch.id] != batch {
            differences.append("projection \(batch) / state \(stateBatches[batch.id].map { "\($0)" } ?? "none")")
        }
        for task in projected.tasks where stateTasks[task.id] != task {
            differences.append("projection \(task) / state \(stateTasks[task.id].map { "\($0)" } ?? "none")")
        }
        return differences
    }

    @Test(
        "at every checkpoint of a generated history, each batch and task row equals the state folded that far",
        arguments: [3 as UInt64, 11])
    func rowsEqualState(seed: UInt64) async throws {
        try await withTemporaryDirectory { directory in
            let final = try await Self.history(seed: seed, in: directory)
            let log = try EventLog.open(
                directory: DataDirectory(directory).log, configuration: .init(readOnly: true), logger: quietLogger)
            let store = try ProjectionStore.inMemory()
            // Small chunks and working sets: rows are evicted and reloaded, as in a large rebuild.
            let runner = ProjectionRunner(chunkSize: 97, workingSetLimit: 50, logger: quietLogger)
            // The projection catches up checkpoint by checkpoint while the state folds the same
            // records: a status that is wrong only for a while (4 before the photo) shows too.
            let end = log.lastPosition
            let checkpoints = Set((1...48).map { end * UInt64($0) / 48 })
            var state = InspectionState()
            var compared = 0
            try log.forEachRecord { record in
                let event = try InspectionEvent.decode(
                    eventType: record.eventType, schemaVersion: Int(record.schemaVersion), payload: record.payload)
                state.apply(event, at: record.occurredAt)
                guard checkpoints.contains(record.position) else { return }
                try runner.catchUp(store, log: log, upTo: record.position)
                let differences = try Self.differences(store, state)
                compared += 1
                #expect(
                    differences.isEmpty,
                    "seed \(seed), position \(record.position): \(differences.count) rows differ, first: \(differences.prefix(3))"
                )
            }
            #expect(compared == checkpoints.count)
            #expect(state == final)
            #expect(final.batches.count > 10 && final.tasks.count > 50)
        }
    }
}
