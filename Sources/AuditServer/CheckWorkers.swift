import Foundation
import NIOConcurrencyHelpers
import NIOPosix

/// The threads datasheet checks run on (web and API): a fixed number of them, so checks never
/// run on an event loop or the cooperative pool, and a bounded number of checks waiting for them.
/// A check that finds every place taken is refused (503 with `Retry-After`) rather than queued
/// behind an unbounded line of uploads, so the event loops keep answering `/health` and reads.
///
/// A check's place is held while it runs, never while its answer is read: a client that reads
/// slowly holds a spooled answer (``spoolCapacity`` of them at most), not a worker.
final class CheckWorkers: Sendable {
    /// Checks running or waiting at most: the threads plus the waiting room.
    let capacity: Int
    /// Finished CSV answers (files of findings) that clients have not read to the end, at most.
    let spoolCapacity: Int
    private let pool: NIOThreadPool
    private let checks: Admissions
    private let spools: Admissions

    /// `threads` checks run at once (at least one); `queueLimit` more may wait for a thread;
    /// `spoolCapacity` CSV answers may wait for their clients to read them.
    init(threads: Int, queueLimit: Int, spoolCapacity: Int = 8) {
        let threads = max(1, threads)
        capacity = threads + max(0, queueLimit)
        self.spoolCapacity = max(1, spoolCapacity)
        checks = Admissions(capacity: capacity)
        spools = Admissions(capacity: self.spoolCapacity)
        pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
    }

    deinit { pool.shutdownGracefully { _ in } }

    /// Checks running or waiting now.
    var pending: Int { checks.count }

    /// CSV answers written and not yet read to the end.
    var spooled: Int { spools.count }

    /// Runs `work` on a worker thread once there is one; throws ``Problem`` 503 at once when
    /// ``capacity`` checks are already running or waiting.
    func run<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        guard let place = checks.admit() else {
            throw Self.busy("\(capacity) datasheet checks are running or waiting; this one was not started")
        }
        defer { place.release() }
        return try await pool.runIfActive(work)
    }

    /// A place for one CSV answer until its client has read it (released when the ticket is);
    /// throws ``Problem`` 503 when ``spoolCapacity`` answers are still being read.
    func admitSpool() throws -> Admissions.Ticket {
        guard let ticket = spools.admit() else {
            throw Self.busy("\(spoolCapacity) CSV answers are still being read by their clients")
        }
        return ticket
    }

    private static func busy(_ message: String) -> Problem {
        var problem = Problem(
            .serviceUnavailable, "checks-busy", message, remedy: "send the upload again after the Retry-After seconds")
        problem.retryAfter = 5
        return problem
    }

    /// A count of places in use, up to a capacity.
    final class Admissions: Sendable {
        let capacity: Int
        private let taken = NIOLockedValueBox(0)

        init(capacity: Int) { self.capacity = capacity }

        var count: Int { taken.withLockedValue { $0 } }

        /// A place, or nil when all are taken.
        func admit() -> Ticket? {
            let admitted = taken.withLockedValue { count in
                guard count < capacity else { return false }
                count += 1
                return true
            }
            return admitted ? Ticket(admissions: self) : nil
        }

        /// One place, given back once: by `release()` or when the ticket is dropped.
        final class Ticket: Sendable {
            private let admissions: Admissions
            private let released = NIOLockedValueBox(false)
            fileprivate init(admissions: Admissions) { self.admissions = admissions }
            deinit { release() }

            func release() {
                let wasReleased = released.withLockedValue { released in
                    defer { released = true }
                    return released
                }
                if !wasReleased { admissions.taken.withLockedValue { $0 -= 1 } }
            }
        }
    }
}
