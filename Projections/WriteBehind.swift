import Foundation

/// Runs the folds' row writes on a second thread while the runner goes on folding: the SQLite
/// work of a rebuild overlaps the folds instead of following each event.
///
/// One connection, never used by two threads at once: the folding thread queues writes and,
/// before it touches the database itself (a read on a cache miss, a GRDB statement, the
/// checkpoint, the commit), calls ``drain()``, which waits until the writer has run everything
/// queued and is idle. Writes run in the order they were queued.
final class WriteBehind: @unchecked Sendable {
    // @unchecked: `queued`, `busy`, `failure` and `stopped` are only touched while holding
    // `condition`; `outgoing` only by the folding thread.

    /// One queued write: the statement and its values.
    struct Write {
        var statement: WriteStatement
        var values: [SQLValue]
    }

    private let condition = NSCondition()
    private var queued: [[Write]] = []
    private var busy = false
    private var failure: (any Error)?
    private var stopped = false
    private let done = DispatchSemaphore(value: 0)
    /// Whether ``stop()`` has waited for the thread (folding thread only).
    private var joined = false
    /// Writes gathered by the folding thread, handed over a batch at a time.
    private var outgoing: [Write] = []
    private static let batchSize = 1_024
    private static let depth = 16

    init() {
        outgoing.reserveCapacity(Self.batchSize)
        let thread = Thread { [self] in
            run()
            done.signal()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Queues a write (folding thread).
    func enqueue(_ statement: WriteStatement, _ values: [SQLValue]) throws {
        outgoing.append(Write(statement: statement, values: values))
        if outgoing.count >= Self.batchSize { try handOver(waitingForRoom: true) }
    }

    /// Waits until every queued write has run; rethrows the first write that failed.
    /// Afterwards the folding thread may use the connection until it queues again.
    func drain() throws {
        try handOver(waitingForRoom: false)
        condition.lock()
        defer { condition.unlock() }
        while (!queued.isEmpty || busy) && failure == nil { condition.wait() }
        if let failure { throw failure }
    }

    /// Stops the writer thread (pending writes are dropped) and waits for it: call on every exit.
    func stop() {
        guard !joined else { return }
        joined = true
        outgoing.removeAll()
        condition.lock()
        stopped = true
        queued.removeAll()
        condition.broadcast()
        condition.unlock()
        done.wait()
    }

    private func handOver(waitingForRoom: Bool) throws {
        guard !outgoing.isEmpty else { return }
        condition.lock()
        defer { condition.unlock() }
        while waitingForRoom && queued.count >= Self.depth && failure == nil { condition.wait() }
        if let failure { throw failure }
        queued.append(outgoing)
        outgoing = []
        outgoing.reserveCapacity(Self.batchSize)
        condition.broadcast()
    }

    private func run() {
        while true {
            condition.lock()
            busy = false
            condition.broadcast()
            while queued.isEmpty && !stopped { condition.wait() }
            if stopped {
                condition.unlock()
                return
            }
            let batch = queued.removeFirst()
            busy = true
            condition.unlock()
            do {
                for write in batch { try write.statement.executeNow(write.values) }
            } catch {
                condition.lock()
                failure = error
                queued.removeAll()
                condition.unlock()
            }
        }
    }
}
