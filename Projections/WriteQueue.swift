import Foundation
import GRDB

/// Carries the folds' row writes, the chunk commits and their reads from the folding thread to
/// the database's own thread, in order: folding the next events overlaps with writing (and
/// committing) the rows of the last ones.
///
/// Only the database thread, inside ``serve(_:committed:)``, touches the connection: it runs the
/// queued statements, commits where the folds asked, and answers ``read(_:)`` once everything
/// queued before it has run. A failure on either side stops both: the database thread drops what
/// is queued and every later call of the folding thread throws; a folding failure ends
/// ``serve(_:committed:)`` with that error. The runner then rolls the chunk in progress back.
final class WriteQueue: @unchecked Sendable {
    // @unchecked: `handedOver`, `pendingRead`, `spare`, `failure`, `producerDone` and
    // `producerFailure` are only touched while holding `condition`; `direct` only by the one
    // thread that runs ``serveHere(_:committed:_:)``; `filling` and `statements`
    // only by the folding thread, except that the database thread reads `statements` after a
    // hand-over (which the lock orders). Only the database thread uses the connection, and
    // `rowsWritten` and `busySeconds`, which the runner reads once `serve` has returned.

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

    /// A read waiting for the database thread; `body` keeps its own result.
    private final class ReadRequest {
        private var body: ((Database) -> Void)?
        var done = false
        init(_ body: @escaping (Database) -> Void) { self.body = body }

        /// Runs the read, then lets go of it: the asking thread's closure must not outlive its call.
        func run(_ db: Database) {
            if let body { body(db) }
            body = nil
        }
    }

    /// Statement numbers that are commits, not statements (their one value is the position).
    private static let commitAndBegin = -1
    private static let finalCommit = -2

    private let condition = NSCondition()
    /// Registered before the first write and read-only afterwards.
    private var statements: [Statement] = []
    /// Rows the folding thread is still gathering (handed over in blocks, not one by one).
    private var filling = Block()
    private var handedOver: [Block] = []
    private var spare: [Block] = []
    private var pendingRead: ReadRequest?
    private var failure: (any Error)?
    private var producerDone = false
    private var producerFailure: (any Error)?
    /// Rows (statements) the database thread has run, and the CPU seconds it spent running them
    /// and committing: what the rebuild's rate cannot beat however fast the folds are. Read after
    /// ``serve(_:committed:)`` returns.
    private(set) var rowsWritten = 0
    private(set) var busySeconds = 0.0
    /// Set while ``serveHere(_:committed:_:)`` runs: statements, commits and reads go straight
    /// to the connection on the calling thread.
    private var direct: Direct?
    private struct Direct {
        let db: Database
        let committed: (UInt64) throws -> Void
    }
    private static let blockSize = 1_024
    /// Blocks queued before the folding thread waits: bounds the memory the rows take.
    private static let depth = 16

    /// Numbers a statement for ``enqueue(_:_:)`` (before anything is queued).
    func register(_ statement: Statement) -> Int {
        statements.append(statement)
        return statements.count - 1
    }

    // MARK: The folding thread's side

    /// Queues statement `number` with `values`; it runs after everything queued before it.
    @inline(__always)
    func enqueue(_ number: Int, _ values: [SQLValue]) throws {
        if direct != nil {
            rowsWritten += 1
            try values.withUnsafeBufferPointer { try WriteStatement.run(statements[number], $0) }
            return
        }
        filling.statements.append(number)
        filling.valueCounts.append(values.count)
        filling.values.append(contentsOf: values)
        if filling.statements.count >= Self.blockSize { try handOver(waitingForRoom: true) }
    }

    /// Queues a commit of everything queued so far, with `position` as the chunk's end; unless
    /// `last`, a new transaction begins.
    func commit(at position: UInt64, last: Bool) throws {
        if let direct {
            try direct.db.commit()
            if !last { try direct.db.beginTransaction() }
            try direct.committed(position)
            return
        }
        filling.statements.append(last ? Self.finalCommit : Self.commitAndBegin)
        filling.valueCounts.append(1)
        filling.values.append(.integer(Int64(bitPattern: position)))
        try handOver(waitingForRoom: true)
    }

    /// Runs `body` on the database thread once everything queued before has run.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        if let direct { return try body(direct.db) }
        try handOver(waitingForRoom: false)
        var result: Result<T, any Error>?
        try withoutActuallyEscaping(body) { body in
            let request = ReadRequest { db in result = Result { try body(db) } }
            condition.lock()
            defer { condition.unlock() }
            pendingRead = request
            condition.broadcast()
            while !request.done && failure == nil { condition.wait() }
            pendingRead = nil
            if !request.done, let failure { throw failure }
        }
        guard let result else { throw ProjectionError(.database, "a read was not answered (run it again)") }
        return try result.get()
    }

    /// The folding thread is done: everything it queued is handed over (unless it failed).
    func finish(_ error: (any Error)?) {
        if error == nil { try? handOver(waitingForRoom: false) }
        condition.lock()
        producerDone = true
        producerFailure = error
        condition.broadcast()
        condition.unlock()
    }

    private func handOver(waitingForRoom: Bool) throws {
        condition.lock()
        defer { condition.unlock() }
        while waitingForRoom && handedOver.count >= Self.depth && failure == nil { condition.wait() }
        if let failure {
            // The database thread has stopped: what was gathered since is dropped too.
            filling.removeAll()
            throw failure
        }
        guard !filling.isEmpty else { return }
        var block = spare.popLast() ?? Block()
        swap(&block, &filling)
        handedOver.append(block)
        condition.broadcast()
    }

    // MARK: The database thread's side

    /// Runs what the folding thread queues until it finishes; `committed` is called after each
    /// commit with its position (throwing from it stops the run).
    /// - Throws: the first failure of a statement, a commit, `committed` or the folding thread.
    func serve(_ db: Database, committed: (UInt64) throws -> Void) throws {
        do {
            while true {
                condition.lock()
                while handedOver.isEmpty && pendingRead == nil && !producerDone { condition.wait() }
                if !handedOver.isEmpty {
                    var block = handedOver.removeFirst()
                    condition.broadcast()
                    condition.unlock()
                    defer { recycle(&block) }
                    // CPU time, not wall time: on a busy machine the thread also waits for a core.
                    let started = Self.threadCPUSeconds()
                    defer { busySeconds += Self.threadCPUSeconds() - started }
                    try run(block, db, committed: committed)
                } else if let read = pendingRead {
                    // Taken here, not by the asking thread when it wakes: until then this loop
                    // would find the same request again and spin.
                    pendingRead = nil
                    condition.unlock()
                    read.run(db)
                    condition.lock()
                    read.done = true
                    condition.broadcast()
                    condition.unlock()
                } else {
                    let error = producerFailure
                    condition.unlock()
                    if let error { throw error }
                    return
                }
            }
        } catch {
            stop(error)
            throw error
        }
    }

    /// Runs `body`, the folds, on this thread, the database's: each statement runs as it is
    /// queued, a commit commits and a read reads, with nothing handed between threads. For a
    /// catch-up of a few events, where the hand-overs (two thread wake-ups per row read back)
    /// cost more than the rows themselves.
    func serveHere(_ db: Database, committed: (UInt64) throws -> Void, _ body: () throws -> Void) throws {
        try withoutActuallyEscaping(committed) { committed in
            direct = Direct(db: db, committed: committed)
            defer { direct = nil }
            try body()
        }
    }

    /// Stops both sides with `error` and waits until the folding thread has finished.
    func stop(_ error: any Error) {
        condition.lock()
        if failure == nil { failure = error }
        handedOver.removeAll()
        condition.broadcast()
        // Reads still asked for are answered with the failure (see ``read(_:)``).
        while !producerDone { condition.wait() }
        condition.unlock()
        // Statements not finalized would keep the connection from closing cleanly.
        statements.removeAll()
    }

    private func run(_ block: Block, _ db: Database, committed: (UInt64) throws -> Void) throws {
        try block.values.withUnsafeBufferPointer { values in
            var start = 0
            for index in block.statements.indices {
                let count = block.valueCounts[index]
                let number = block.statements[index]
                if number >= 0 {
                    rowsWritten += 1
                    try WriteStatement.run(
                        statements[number], UnsafeBufferPointer(rebasing: values[start..<start + count]))
                } else if case .integer(let position) = values[start] {
                    try db.commit()
                    if number == Self.commitAndBegin { try db.beginTransaction() }
                    try committed(UInt64(bitPattern: position))
                }
                start += count
            }
        }
    }

    private static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Empties a block here, so the rows' strings are released on this thread, and keeps it for reuse.
    private func recycle(_ block: inout Block) {
        block.removeAll()
        condition.lock()
        if spare.count < Self.depth { spare.append(block) }
        condition.unlock()
    }
}
