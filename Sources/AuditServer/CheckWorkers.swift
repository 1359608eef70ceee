import Foundation
import NIOConcurrencyHelpers
import NIOPosix

/// The threads datasheet checks run on (web and API): a fixed number of them, so checks never
/// run on an event loop or the cooperative pool, and a bounded number of checks waiting for them.
/// A check that finds every place taken is refused (503 with `Retry-After`) rather than queued
/// behind an unbounded line of uploads, so the event loops keep answering `/health` and reads.
final class CheckWorkers: Sendable {
    /// Checks running or waiting at most: the threads plus the waiting room.
    let capacity: Int
    private let pool: NIOThreadPool
    private let admitted = NIOLockedValueBox(0)

    /// `threads` checks run at once (at least one); `queueLimit` more may wait for a thread.
    init(threads: Int, queueLimit: Int) {
        let threads = max(1, threads)
        capacity = threads + max(0, queueLimit)
        pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
    }

    deinit { pool.shutdownGracefully { _ in } }

    /// Checks running or waiting now.
    var pending: Int { admitted.withLockedValue { $0 } }

    /// Runs `work` on a worker thread once there is one; throws ``Problem`` 503 at once when
    /// ``capacity`` checks are already running or waiting.
    func run<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        let place = try admit()
        defer { place.release() }
        return try await pool.runIfActive(work)
    }

    /// Takes a place for a check that outlives one call (a streamed answer); the caller releases
    /// it when the check is done.
    func admit() throws -> Place {
        let taken = admitted.withLockedValue { count in
            guard count < capacity else { return false }
            count += 1
            return true
        }
        guard taken else {
            var problem = Problem(
                .serviceUnavailable, "checks-busy",
                "\(capacity) datasheet checks are running or waiting; this one was not started",
                remedy: "send the upload again after the Retry-After seconds")
            problem.retryAfter = 5
            throw problem
        }
        return Place(workers: self)
    }

    /// Runs `work` on a worker thread in a place the caller already holds.
    func run<Value: Sendable>(in place: Place, _ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await pool.runIfActive(work)
    }

    /// Starts `work` on a worker thread in a place the caller already holds, without waiting.
    func start(in place: Place, _ work: @escaping @Sendable () -> Void) { pool.submit { _ in work() } }

    /// One admitted check's place, released once.
    final class Place: Sendable {
        private let workers: CheckWorkers
        private let released = NIOLockedValueBox(false)
        fileprivate init(workers: CheckWorkers) { self.workers = workers }
        // A place whose answer was dropped before its check started is given back here.
        deinit { release() }

        func release() {
            guard
                !released.withLockedValue({
                    let was = $0
                    $0 = true
                    return was
                })
            else { return }
            workers.admitted.withLockedValue { $0 -= 1 }
        }
    }
}
