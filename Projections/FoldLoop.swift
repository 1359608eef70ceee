import AuditLog
import Foundation
import Inspection

/// The folding side of a catch-up, on a thread of its own: decoded events in, each folded into
/// every projection that has not seen it, rows and chunk commits out through the ``WriteQueue``
/// (which the database thread serves meanwhile).
final class FoldLoop: @unchecked Sendable {
    // @unchecked: the folds, the context and the counters are used by the folding thread only
    // while it runs; the runner reads the counters after ``wait()``, which orders them.

    private let folds: [any ProjectionFold]
    private let names: [String]
    /// For each event type, the folds that read it, as a bit set.
    private let readers: [UInt64]
    private let context: FoldContext
    private let saveCheckpoint: WriteStatement
    private let chunkSize: Int
    private let pipeline: DecodingPipeline
    private let done = DispatchSemaphore(value: 0)
    /// Per fold, the checkpoint it started from (``run()`` keeps the last position it has folded).
    private let folded: [UInt64]
    /// Records read, and the last position read.
    private(set) var events = 0
    private(set) var last: UInt64

    /// Starts folding `start...end` of `log` (nothing before `checkpoints.min()` is read) on a
    /// thread of its own; when `inline`, reads and decodes the range now and folds it in
    /// ``runHere()`` instead.
    init(
        log: any EventStore, upTo end: UInt64, projections: [any Projection], folds: [any ProjectionFold],
        checkpoints: [UInt64], context: FoldContext, saveCheckpoint: WriteStatement, chunkSize: Int,
        inline: Bool = false
    ) {
        self.folds = folds
        names = projections.map(\.name)
        readers = EventTypeInterner().names.map { name in
            projections.indices.reduce(0) { mask, index in
                projections[index].eventTypes?.contains(name) ?? true ? mask | (1 << index) : mask
            }
        }
        self.context = context
        self.saveCheckpoint = saveCheckpoint
        self.chunkSize = chunkSize
        folded = checkpoints
        let low = checkpoints.min() ?? end
        last = low
        pipeline = DecodingPipeline(
            log: log, from: low + 1, upTo: end, wanted: readers.map { $0 != 0 }, inline: inline)
        if inline {
            done.signal()
            return
        }
        // Weak, and the semaphore captured on its own: once `done` is signalled the thread holds
        // nothing of the loop (its folds' statements must be finalized before the database closes).
        let done = done
        let thread = Thread { [weak self] in
            self?.runToEnd()
            done.signal()
        }
        thread.name = "projection folds"
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Waits until the folding thread has finished.
    func wait() {
        done.wait()
        done.signal()
    }

    /// Folds the range on this thread (a loop made `inline`, inside the write queue's
    /// ``WriteQueue/serveHere(_:committed:_:)``).
    func runHere() throws {
        defer { pipeline.stop() }
        try run()
    }

    private func runToEnd() {
        var failure: (any Error)?
        do { try run() } catch { failure = error }
        pipeline.stop()
        context.writes.finish(failure)
    }

    private func run() throws {
        // Locals: read through `self` per event, each array would be retained and released.
        let directory = context.directory
        let folds = folds
        let taskFolds = TaskFolds(folds)
        let readers = readers
        var folded = folded
        var inChunk = 0
        while let batch = try pipeline.next() {
            context.paths.append(batch.newPaths)
            try batch.items.withUnsafeBufferPointer { items in
                for offset in items.indices {
                    let envelope = items[offset].envelope
                    let position = envelope.position
                    var mask = readers[items[offset].type]
                    let index = items[offset].index
                    if let event = items[offset].task {
                        // The task is looked up once, here, for every fold; an event about a
                        // task never allocated changes nothing.
                        if let task = try directory?.record(batch.taskIDs[index]) {
                            while mask != 0 {
                                let fold = mask.trailingZeroBitCount
                                mask &= mask - 1
                                if folded[fold] < position { try taskFolds.apply(fold, event, envelope, task) }
                            }
                        }
                    } else {
                        let event = batch.events[index]
                        while mask != 0 {
                            let fold = mask.trailingZeroBitCount
                            mask &= mask - 1
                            if folded[fold] < position { try folds[fold].apply(event, envelope) }
                        }
                    }
                    inChunk += 1
                    if inChunk >= chunkSize {
                        try endChunk(at: position, last: false, &folded)
                        inChunk = 0
                    }
                }
            }
            last = batch.lastPosition
            events += batch.records
            pipeline.recycle(batch)
        }
        try endChunk(at: last, last: true, &folded)
    }

    /// Queues every fold's rows, the checkpoints and the commit.
    private func endChunk(at position: UInt64, last: Bool, _ folded: inout [UInt64]) throws {
        for index in folds.indices where folded[index] < position {
            try folds[index].flush(at: position)
            try saveCheckpoint.execute(.integer(Int64(position)), .text(names[index]))
            folded[index] = position
        }
        try context.writes.commit(at: position, last: last)
        // The rows hold copies of what the task records held: the records may be dropped now.
        context.directory?.trim()
    }
}

/// The folds of one run, for task events: the catalogue's three that read them are called by
/// their concrete types. A call through `any ProjectionFold` retains and releases the fold each
/// time, and task events are most of the log.
private struct TaskFolds {
    let all: [any ProjectionFold]
    let batch: BatchFold?
    let quality: QualityFold?
    let inspectors: InspectorFold?
    /// Their numbers in `all` (-1 when not in this run).
    let batchIndex: Int
    let qualityIndex: Int
    let inspectorsIndex: Int

    init(_ folds: [any ProjectionFold]) {
        all = folds
        batchIndex = folds.firstIndex { $0 is BatchFold } ?? -1
        qualityIndex = folds.firstIndex { $0 is QualityFold } ?? -1
        inspectorsIndex = folds.firstIndex { $0 is InspectorFold } ?? -1
        batch = batchIndex >= 0 ? folds[batchIndex] as? BatchFold : nil
        quality = qualityIndex >= 0 ? folds[qualityIndex] as? QualityFold : nil
        inspectors = inspectorsIndex >= 0 ? folds[inspectorsIndex] as? InspectorFold : nil
    }

    /// Folds the event into fold number `index`.
    @inline(__always)
    func apply(_ index: Int, _ event: TaskEvent, _ envelope: EventEnvelope, _ task: TaskRecord) throws {
        switch index {
        case batchIndex: try batch?.apply(event, envelope, task)
        case qualityIndex: try quality?.apply(event, envelope, task)
        case inspectorsIndex: try inspectors?.apply(event, envelope, task)
        default: try all[index].apply(event, envelope, task)
        }
    }
}
