import AuditLog
import Foundation
import Logging
import Projections

/// Keeps the projection database the service's ``AuditService/queries`` read caught up with the
/// log: told of every position the log reaches, it has the new events folded on a background
/// thread, so the append is answered without waiting and the next report finds little or nothing
/// left to fold (a report still catches up itself first, so it never misses an append).
public actor ProjectionFollower: LogObserver {
    /// The projection database (`<data>/projections.sqlite`).
    public nonisolated let store: ProjectionStore
    private let live: LiveProjections
    private let directory: DataDirectory
    private let log: any EventStore
    private let logger: Logger

    init(store: ProjectionStore, live: LiveProjections, directory: DataDirectory, log: any EventStore, logger: Logger) {
        self.store = store
        self.live = live
        self.directory = directory
        self.log = log
        self.logger = logger
    }

    /// Notes the new position for the background fold; returns at once, also while a fold runs.
    public nonisolated func logAdvanced(to position: UInt64) {
        live.catchUpSoon(to: position, directory: directory, log: log, logger: logger)
    }

    /// Runs `body` as if a fold were running meanwhile: for tests.
    package nonisolated func whileFolding<T>(_ body: () throws -> T) rethrows -> T {
        try live.whileFolding(body)
    }

    /// Waits for the folds asked for so far; the error the last one met, if any (the next
    /// append tries again).
    public func settle() async -> String? {
        let live = live
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: live.settle()) }
        }
    }

    /// Folds everything the log holds now and waits for it; the error it met, if any.
    @discardableResult
    public func catchUp() async -> String? {
        live.catchUpSoon(to: log.lastPosition, directory: directory, log: log, logger: logger)
        return await settle()
    }

    /// The error the last background fold met, nil when it succeeded (the next append tries again).
    public var lastError: String? { live.lastBackgroundError }

    /// The position the database has folded up to.
    public nonisolated var foldedPosition: UInt64 { live.foldedPosition }
}

extension AuditService {
    /// Opens `<data>/projections.sqlite` (the one ``queries`` read), brings it up to date
    /// (rebuilding projections whose version changed: on a background thread, so commands are
    /// not held up meanwhile) and keeps it caught up after every append.
    /// - Throws: ``AuditServiceError`` `.projections` when the database cannot be opened or folded.
    public func followProjections() async throws -> ProjectionFollower {
        let queries = queries
        let store = try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try queries.projections() }) }
        }
        let follower = ProjectionFollower(
            store: store, live: liveProjections, directory: DataDirectory(dataDirectory), log: log, logger: logger)
        addObserver(follower)
        // Appends made while the database was being opened: folded now.
        follower.logAdvanced(to: log.lastPosition)
        return follower
    }
}
