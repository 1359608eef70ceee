import Foundation
import GRDB

/// Runs the folds' row writes, and the chunk commits, on a thread of its own, in the order they
/// were queued: folding the next events overlaps with writing the rows of the last ones.
///
/// Only one thread uses the connection at a time: the writer runs queued statements, and the
/// folding thread calls ``drain()`` (which waits until the writer is idle) before it touches
/// the database itself — to read a row it evicted, say. A failed statement stops the writer: what
/// was queued after it is dropped, and every later hand-over of a block and every ``drain()``
/// throws, so the runner rolls the chunk back (the commit only follows a ``drain()``).
final class WriteQueue: @unchecked Sendable {
    // @unchecked: `handedOver`, `idle`, `failure`, `stopped` and `spare` are only touched while
    // holding `condition`; `filling` and `statements` only by the folding thread (the writer reads
    // `statements` after a hand-over, which orders it). The statements travel between
    // the threads, but only one of them uses the connection at a time (see above).

    /// Statements and their values, flat: no allocation per row once the blocks are warm.
    private struct Block {
        var statements: [Int] = []
        var valueCounts: [Int] = []
        var values: [SQLValue] = []

        var isEmpty: Bool { statements.isEmpty }

        mutating func removeAll() {
            statements.removeAll(keepingCapacity: true)
            valueCounts.removeAll(keepingCapacity: true)
            values.removeAll(keepingCapacity: true)
        }
    }

    private let condition = NSCondition()
    /// Registered before the first write and read-only afterwards.
    private var statements: [Statement] = []
    /// Rows the folding thread is still gathering (handed over in blocks, not one by one).
    private var filling = Block()
    private var handedOver: [Block] = []
    private var spare: [Block] = []
    private var idle = true
    private var failure: (any Error)?
    private var stopped = false
    private let done = DispatchSemaphore(value: 0)
    private static let blockSize = 1_024
    /// Blocks queued before the folding thread waits: bounds the memory the rows take.
    private static let depth = 16

    init() {
        // Strong: a weak reference would move the queue's reference count to a side table, which
        // makes every retain of it slow; the thread ends in ``stop()``, releasing the queue.
        let thread = Thread { [self] in run() }
        thread.name = "projection writer"
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Numbers a statement for ``enqueue(_:_:)`` (before anything is queued).
    func register(_ statement: Statement) -> Int {
        statements.append(statement)
        return statements.count - 1
    }

    /// Queues statement `number` with `values`; it runs after everything queued before it.
    @inline(__always)
    func enqueue(_ number: Int, _ values: [SQLValue]) throws {
        filling.statements.append(number)
        filling.valueCounts.append(values.count)
        filling.values.append(contentsOf: values)
        if filling.statements.count >= Self.blockSize { try handOver(waitingForRoom: true) }
    }

    /// Waits until every queued statement has run; rethrows the first failure.
    func drain() throws {
        try handOver(waitingForRoom: false)
        condition.lock()
        defer { condition.unlock() }
        while (!handedOver.isEmpty || !idle) && failure == nil { condition.wait() }
        if let failure { throw failure }
    }

    /// Drops what is queued and stops the thread (call on every exit path; idempotent).
    func stop() {
        condition.lock()
        if stopped {
            condition.unlock()
            return
        }
        stopped = true
        handedOver.removeAll()
        condition.broadcast()
        condition.unlock()
        filling.removeAll()
        done.wait()
        // Statements not finalized would keep the connection from closing cleanly.
        statements.removeAll()
    }

    private func handOver(waitingForRoom: Bool) throws {
        condition.lock()
        defer { condition.unlock() }
        while waitingForRoom && handedOver.count >= Self.depth && failure == nil { condition.wait() }
        if let failure {
            // The writer has stopped: what was gathered since is dropped too.
            filling.removeAll()
            throw failure
        }
        guard !filling.isEmpty else { return }
        var block = spare.popLast() ?? Block()
        swap(&block, &filling)
        handedOver.append(block)
        condition.broadcast()
    }

    private func run() {
        while true {
            condition.lock()
            idle = true
            condition.broadcast()
            while handedOver.isEmpty && !stopped { condition.wait() }
            if stopped {
                condition.unlock()
                done.signal()
                return
            }
            var block = handedOver.removeFirst()
            idle = false
            condition.unlock()
            var error: (any Error)?
            block.values.withUnsafeBufferPointer { values in
                var start = 0
                for index in block.statements.indices {
                    let count = block.valueCounts[index]
                    do {
                        try WriteStatement.run(
                            statements[block.statements[index]],
                            UnsafeBufferPointer(rebasing: values[start..<start + count]))
                    } catch let failed {
                        error = failed
                        return
                    }
                    start += count
                }
            }
            // Emptied here, so the rows' strings are released on this thread, not the folding one.
            block.removeAll()
            condition.lock()
            if let error {
                failure = error
                handedOver.removeAll()
            }
            if spare.count < Self.depth { spare.append(block) }
            condition.unlock()
        }
    }
}
