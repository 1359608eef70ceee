import AuditLog
import Foundation
import Logging
import Projections

/// Keeps the projection database of a data directory caught up with the service's log: told of
/// every position the log reaches, it folds the new events (on its own actor, after the append
/// has been answered).
public actor ProjectionFollower: LogObserver {
    /// The projection database (`<data>/projections.sqlite`).
    public nonisolated let store: ProjectionStore
    private let log: any EventStore
    private let runner: ProjectionRunner
    private let logger: Logger
    /// The last error a catch-up met, if any (the next advance tries again).
    public private(set) var lastError: String?

    init(store: ProjectionStore, log: any EventStore, runner: ProjectionRunner, logger: Logger) {
        self.store = store
        self.log = log
        self.runner = runner
        self.logger = logger
    }

    public func logAdvanced(to position: UInt64) async {
        catchUp(to: position)
    }

    /// Folds everything up to `position` (the log's end when nil); errors are logged and kept.
    public func catchUp(to position: UInt64? = nil) {
        do {
            try runner.catchUp(store, log: log, upTo: position)
            lastError = nil
        } catch {
            lastError = "\(error)"
            logger.warning("projections could not catch up", metadata: ["error": "\(error)"])
        }
    }
}

extension AuditService {
    /// Opens `<data>/projections.sqlite`, brings it up to date (rebuilding projections whose
    /// version changed) and keeps it caught up after every append.
    /// - Throws: ``ProjectionError`` when the database cannot be opened or folded.
    public func followProjections() async throws -> ProjectionFollower {
        let logger = logger
        let store = try ProjectionDatabase.caughtUp(dataDirectory: dataDirectory, log: log, logger: logger) {
            logger.warning("\($0)")
        }
        let runner = ProjectionRunner(logger: logger)
        let follower = ProjectionFollower(store: store, log: log, runner: runner, logger: logger)
        addObserver(follower)
        return follower
    }
}
