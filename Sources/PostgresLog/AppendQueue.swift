import AuditLog
import Foundation

/// The appends waiting for the next group commit, and whether one is under way.
///
/// The first caller to find no commit under way becomes the committer: it takes everything
/// queued, writes it in one transaction, and keeps going while more has queued meanwhile.
/// Callers that arrive during a commit just wait for the next one: that is the group.
final class AppendQueue: @unchecked Sendable {
    // @unchecked: every field is guarded by `lock`.

    /// One caller's batch, all-or-nothing, and how to answer it.
    struct Pending {
        var batch: [StreamAppend]
        var eventCount: Int
        var answer: CheckedContinuation<[AppendResult], any Error>
    }

    private let lock = NSLock()
    private var pending: [Pending] = []
    private var committing = false

    /// Queues `pending`; true when the caller must commit (no commit was under way).
    func enqueue(_ item: Pending) -> Bool {
        lock.withLock {
            pending.append(item)
            guard !committing else { return false }
            committing = true
            return true
        }
    }

    /// Takes up to `maxEvents` events' worth of queued batches (at least one), or nothing, in
    /// which case the committer stops.
    func takeGroup(maxEvents: Int) -> [Pending] {
        lock.withLock {
            guard !pending.isEmpty else {
                committing = false
                return []
            }
            var count = 0
            var taken = 0
            while taken < pending.count && (taken == 0 || count + pending[taken].eventCount <= maxEvents) {
                count += pending[taken].eventCount
                taken += 1
            }
            defer { pending.removeFirst(taken) }
            return Array(pending.prefix(taken))
        }
    }
}
