import NIOConcurrencyHelpers
import NIOPosix

/// The threads that check passwords (bcrypt, slow by design): a fixed number at once, a few more
/// waiting, and any beyond that refused at once, so a flood of logins costs the server a known
/// share of its cores and never a queue without end.
final class LoginWorkers: Sendable {
    private let pool: NIOThreadPool
    /// Checks running or waiting.
    private let admitted = NIOLockedValueBox(0)
    /// The most checks running or waiting.
    let limit: Int

    init(workers: Int, queueLimit: Int) {
        pool = NIOThreadPool(numberOfThreads: max(1, workers))
        pool.start()
        limit = max(1, workers) + max(0, queueLimit)
    }

    deinit { pool.shutdownGracefully { _ in } }

    /// Runs `check` on a worker; nil at once when as many checks as ``limit`` are running or waiting.
    func run<T: Sendable>(_ check: @escaping @Sendable () throws -> T) async throws -> T? {
        let taken = admitted.withLockedValue { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
        guard taken else { return nil }
        defer { admitted.withLockedValue { $0 -= 1 } }
        return try await pool.runIfActive(check)
    }

    /// Checks running or waiting (for tests).
    var inUse: Int { admitted.withLockedValue { $0 } }
}
