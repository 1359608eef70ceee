import AuditLog
import Dispatch
import Foundation
import PostgresNIO

/// One group on its way through ``PostgresEventStore/commitQueued()``: the next group builds on
/// its plan, and waits for it to end (or to give that plan up) before it takes the head.
final class GroupStage: @unchecked Sendable {
    // @unchecked: every field is guarded by `lock`.
    private let lock = NSLock()
    /// Set once: what the next group may start from, or nil when it should not build on this one.
    private var published: GroupBase??
    private var abandoned = false
    private var isFinished = false
    private var baseWaiters: [CheckedContinuation<GroupBase?, Never>] = []
    private var settleWaiters: [Int: CheckedContinuation<Bool?, Never>] = [:]
    private var lastWaiter = 0
    private var finishWaiters: [CheckedContinuation<Void, Never>] = []

    /// Records where the group's plan leaves the log (the first call counts).
    func publish(_ base: GroupBase?) {
        let waiters = lock.withLock { () -> [CheckedContinuation<GroupBase?, Never>] in
            guard published == nil else { return [] }
            published = .some(base)
            defer { baseWaiters = [] }
            return baseWaiters
        }
        for waiter in waiters { waiter.resume(returning: base) }
    }

    /// The published plan will not be committed as it was published: a group built on it must
    /// give its rows back, and the next one does not build on it.
    func abandon() {
        let (bases, settles) = lock.withLock {
            abandoned = true
            if published == nil { published = .some(nil) }
            defer { (baseWaiters, settleWaiters) = ([], [:]) }
            return (baseWaiters, settleWaiters)
        }
        for waiter in bases { waiter.resume(returning: nil) }
        for waiter in settles.values { waiter.resume(returning: false) }
    }

    /// The group's published base once it is planned; nil when it is not to be built on.
    func base() async -> GroupBase? {
        await withCheckedContinuation { continuation in
            let ready = lock.withLock { () -> GroupBase?? in
                if abandoned || isFinished && published == nil { return .some(nil) }
                if let published { return published }
                baseWaiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Waits until the group has ended or given its plan up: false when it gave it up, nil when
    /// `timeout` passed first.
    ///
    /// The wait is bounded because PostgreSQL cannot see it: were the group waited for ever to
    /// wait, through some lock, on rows the waiter holds, only the timeout would end the cycle.
    func settled(timeout: Duration) async -> Bool? {
        await withCheckedContinuation { continuation in
            let (ready, id) = lock.withLock { () -> (Bool??, Int) in
                if abandoned { return (.some(false), 0) }
                if isFinished { return (.some(true), 0) }
                lastWaiter += 1
                settleWaiters[lastWaiter] = continuation
                return (nil, lastWaiter)
            }
            if let ready {
                continuation.resume(returning: ready)
                return
            }
            Task {
                try? await Task.sleep(for: timeout)
                let waiter = self.lock.withLock { self.settleWaiters.removeValue(forKey: id) }
                waiter?.resume(returning: nil)
            }
        }
    }

    /// The group is answered (committed or failed).
    func finish() {
        let (bases, settles, ends, wasAbandoned) = lock.withLock {
            isFinished = true
            if published == nil { published = .some(nil) }
            defer { (baseWaiters, settleWaiters, finishWaiters) = ([], [:], []) }
            return (baseWaiters, settleWaiters, finishWaiters, abandoned)
        }
        for waiter in bases { waiter.resume(returning: nil) }
        for waiter in settles.values { waiter.resume(returning: !wasAbandoned) }
        for waiter in ends { waiter.resume() }
    }

    func finished() async {
        await withCheckedContinuation { continuation in
            let done = lock.withLock {
                if isFinished { return true }
                finishWaiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }
}

extension PostgresEventStore {
    /// Commits `batches` as the group right after `previous`, whose plan `base` is, without
    /// waiting for it to commit first: plans on top of it and inserts the rows while PostgreSQL
    /// still inserts the previous group's; then, once that group has ended, locks the head and
    /// moves it only if it is exactly where `base` ends. Returns nil, with nothing stored, when
    /// that does not hold (the previous group failed or gave its plan up, or another server
    /// appended: the caller commits the usual way) or when a batch would fail (the usual way
    /// decides it with its command ids looked up).
    ///
    /// Positions stay gapless and in commit order: this transaction moves the head only while
    /// holding it, from `base`'s end, and its rows start right after it.
    func commitAhead(
        _ batches: [[StreamAppend]], after base: GroupBase, of previous: GroupStage, as stage: GroupStage,
        on connection: PostgresConnection
    ) async throws -> [Result<[AppendResult], any Error>]? {
        guard DispatchTime.now().uptimeNanoseconds >= stateLock.withLock({ commitsAheadPausedUntil }) else {
            return nil
        }
        // Versions and command ids the base does not know are read as committed; the base's own
        // (its streams and commands, committed or not) go on top.
        let streams = Set(batches.lazy.flatMap { $0.map(\.streamID) }).filter { base.versions[$0] == nil }
        let ids = Set(batches.lazy.flatMap { $0.map(\.commandID) })
        let begin = send("BEGIN", on: connection)
        let lookUp = send(
            Self.lockAndLookUp(streams: Array(streams), ids: Array(ids), locking: false), on: connection)
        var plan: GroupPlan
        let outcomes: [Result<[AppendResult], any Error>]
        do {
            _ = try await begin.get()
            var (_, versions, commands, _) = try decodeLookUp(try await lookUp.get())
            versions.merge(base.versions) { _, based in based }
            for id in ids { if let command = base.commands[id] { commands[id] = command } }
            plan = GroupPlan(head: base.head, now: clock.now(), versions: versions, commands: commands)
            outcomes = batches.map { batch in Result { try plan.add(batch) } }
        } catch {
            await rollBack(connection)
            return nil
        }
        guard !plan.isEmpty, outcomes.allSatisfy({ if case .success = $0 { true } else { false } }) else {
            await rollBack(connection)
            return nil
        }
        stage.publish(plan.base)
        do {
            _ = try await send(plan.insertQuery, on: connection).get()
            // The head is taken once the previous group has ended (a group inserting faster than
            // the one before it must not take the head first). Its giving up is a wait that
            // PostgreSQL cannot see: the rows inserted here are given back before its own retry,
            // which may need their positions.
            switch await previous.settled(timeout: Self.aheadWaitLimit) {
            case true?: break
            case false?:
                await giveUp(stage, connection, pause: false)
                return nil
            case nil:
                await giveUp(stage, connection, pause: true)
                return nil
            }
            var current: (position: UInt64, hash: [UInt8])?
            let rows = try await connection.query(
                "SELECT last_position, head_hash FROM itemaudit_log_head WHERE id = 1 FOR UPDATE", logger: logger
            ).get()
            for row in rows {
                let (position, hash) = try row.decode((Int64, ByteBuffer).self)
                current = (UInt64(position), Array(buffer: hash))
            }
            guard let current, current.position == base.head.position, current.hash == base.head.hash else {
                // The previous group did not commit as planned, or another server's came in between.
                await giveUp(stage, connection, pause: true)
                return nil
            }
        } catch {
            // A row another server stored meanwhile, or a deadlock with its transaction.
            await giveUp(stage, connection, pause: true)
            return nil
        }
        let move = send(plan.moveHeadQuery, on: connection)
        let commit = send("COMMIT", on: connection)
        do {
            _ = try await move.get()
            _ = try await commit.get()
        } catch {
            _ = try? await commit.get()
            if let error = error as? PSQLError, error.serverInfo != nil { throw unavailable(error) }
            throw commitUnknown()
        }
        committed(plan.head)
        stateLock.withLock { committedAhead += 1 }
        return outcomes
    }

    /// How long a group committed ahead waits for the previous one to end before it gives its
    /// rows back (a previous group's write takes tens of milliseconds).
    static let aheadWaitLimit = Duration.seconds(2)

    /// Rolls a group committed ahead back, telling the group built on it (and for a while stops
    /// committing ahead when another server may be appending).
    private func giveUp(_ stage: GroupStage, _ connection: PostgresConnection, pause: Bool) async {
        if pause { pauseCommitsAhead() }
        await rollBack(connection)
        stage.abandon()
    }

    /// After a commit of this process: the head moved to `head`.
    func committed(_ head: Head) {
        stateLock.withLock { ownCommitEnd = max(ownCommitEnd, head.position) }
        learn(head)
    }

    /// Stops committing groups ahead for a while: another server is appending, and a group
    /// holding rows while it waits for the head could deadlock with that server's.
    func pauseCommitsAhead() {
        let until = DispatchTime.now().uptimeNanoseconds + 5_000_000_000
        stateLock.withLock { commitsAheadPausedUntil = until }
    }

    private func rollBack(_ connection: PostgresConnection) async {
        _ = try? await connection.query("ROLLBACK", logger: logger).get()
    }
}
