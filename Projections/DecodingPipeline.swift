import AuditLog
import Foundation
import Inspection

/// Reads and decodes the log on a second thread while the runner folds and writes on its own:
/// a bounded queue of decoded batches between them (memory stays a few thousand events).
final class DecodingPipeline: @unchecked Sendable {
    // @unchecked: `batches`, `finished`, `failure` and `cancelled` are only touched while
    // holding `condition`.

    /// One record a fold reads: its type index and envelope, and the task event it is (most
    /// records; `index` is its task id's in ``Batch/taskIDs``) or, when `task` is nil, the index
    /// of its decoded event in ``Batch/events``. No strings, so reading it costs no reference
    /// counting.
    struct Item: Sendable {
        var type: Int
        var envelope: EventEnvelope
        var task: TaskEvent?
        var index: Int
    }

    /// Consecutive records: the ones some fold reads, and how far the batch reaches (records of
    /// types no fold reads are counted, not sent).
    struct Batch: Sendable {
        var items: [Item] = []
        /// The task ids of the task events.
        var taskIDs: [String] = []
        /// The events that are not task events (allocations, batch and reference events).
        var events: [InspectionEvent] = []
        /// Attribute paths numbered for the first time in this batch.
        var newPaths: [String] = []
        var records = 0
        var lastPosition: UInt64 = 0

        mutating func removeAll() {
            items.removeAll(keepingCapacity: true)
            taskIDs.removeAll(keepingCapacity: true)
            events.removeAll(keepingCapacity: true)
            records = 0
        }
    }

    private let condition = NSCondition()
    private var batches: [Batch] = []
    /// Batches the folding thread is done with: emptied and refilled here, so their events are
    /// released on the thread that made them (freeing across threads is slow).
    private var used: [Batch] = []
    private var finished = false
    private var failure: (any Error)?
    private var cancelled = false
    private let done = DispatchSemaphore(value: 0)
    private static let batchSize = 2_048
    private static let depth = 8

    /// Starts reading `start...end` of `log`, decoding the types `wanted` marks.
    /// Decoding everything before the first batch is taken (no reading thread, no bound).
    private let inline: Bool

    /// Starts reading `start...end` of `log`, decoding the types `wanted` marks, on a thread of
    /// its own; or, when `inline`, reads and decodes it all now, on this thread (for a range of a
    /// few thousand events, which the queue then holds whole).
    init(log: any EventStore, from start: UInt64, upTo end: UInt64, wanted: [Bool], inline: Bool = false) {
        self.inline = inline
        if inline {
            produce(log: log, from: start, upTo: end, wanted: wanted)
            return
        }
        let thread = Thread { [self] in produce(log: log, from: start, upTo: end, wanted: wanted) }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Reads and decodes the range into batches for ``next()``, then signals `done`.
    private func produce(log: any EventStore, from start: UInt64, upTo end: UInt64, wanted: [Bool]) {
        var types = EventTypeInterner()
        var paths = AttributePathNumbers()
        var taskID = ""
        var batch = Batch()
        batch.items.reserveCapacity(Self.batchSize)
        do {
            try log.forEachRecordView(from: start, upTo: end) { record in
                let envelope = EventEnvelope(
                    position: record.position, recordedAt: record.recordedAt.microsecondsSinceEpoch,
                    occurredAt: record.occurredAt.microsecondsSinceEpoch)
                batch.records += 1
                batch.lastPosition = envelope.position
                if let type = types.index(of: record), wanted[type] {
                    let kind = types.kinds[type]
                    if let task = try Self.taskEvent(record, kind, &paths, &taskID) {
                        batch.items.append(
                            Item(type: type, envelope: envelope, task: task, index: batch.taskIDs.count))
                        batch.taskIDs.append(taskID)
                    } else {
                        batch.items.append(
                            Item(type: type, envelope: envelope, task: nil, index: batch.events.count))
                        batch.events.append(try ProjectionRunner.decode(record, kind))
                    }
                }
                if batch.records >= Self.batchSize {
                    batch.newPaths = paths.takeNew()
                    batch = try put(batch)
                    batch.removeAll()
                }
            }
            if batch.records > 0 {
                batch.newPaths = paths.takeNew()
                _ = try put(batch)
            }
            finish(nil)
        } catch {
            finish(error)
        }
        done.signal()
    }

    /// The task event `record` is, and its task id in `taskID`: read straight from its payload,
    /// or (an older version, or a payload the direct reader turns away) decoded in full, which
    /// throws what is wrong. Nil for other events.
    private static func taskEvent(
        _ record: EventRecordView, _ kind: EventType, _ paths: inout AttributePathNumbers,
        _ taskID: inout String
    ) throws -> TaskEvent? {
        guard let taskKind = kind.taskEventKind else { return nil }
        let direct = record.withPayload { payload in
            TaskEvent.decode(
                taskKind, schemaVersion: Int(record.schemaVersion), payload: payload, paths: &paths, taskID: &taskID)
        }
        if let direct { return direct }
        let event = try ProjectionRunner.decode(record, kind)
        taskID = event.taskID ?? ""
        return TaskEvent(event, paths: &paths)
    }

    /// Queues `batch`; returns a used batch to refill (or a new one).
    private func put(_ batch: Batch) throws -> Batch {
        condition.lock()
        defer { condition.unlock() }
        while !inline && batches.count >= Self.depth && !cancelled { condition.wait() }
        if cancelled { throw ProjectionError(.cancelled, "the fold stopped") }
        batches.append(batch)
        condition.broadcast()
        return used.popLast() ?? Batch()
    }

    private func finish(_ error: (any Error)?) {
        condition.lock()
        finished = true
        if failure == nil { failure = error }
        condition.broadcast()
        condition.unlock()
    }

    /// The next decoded batch, nil at the end. Rethrows what the reading thread met.
    func next() throws -> Batch? {
        condition.lock()
        defer { condition.unlock() }
        while batches.isEmpty && !finished { condition.wait() }
        if !batches.isEmpty {
            condition.broadcast()
            return batches.removeFirst()
        }
        if let failure, !(failure is CancelledByConsumer) { throw failure }
        return nil
    }

    /// Gives back a batch the caller has folded, to be emptied and reused by the reading thread.
    func recycle(_ batch: consuming Batch) {
        condition.lock()
        if used.count < Self.depth { used.append(batch) }
        condition.unlock()
    }

    /// Stops the reading thread and waits for it (call on every exit path of the consumer).
    func stop() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
        done.wait()
    }

    private struct CancelledByConsumer: Error {}
}
