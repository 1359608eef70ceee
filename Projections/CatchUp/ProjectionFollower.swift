import AuditLog
import Foundation
import Logging

/// Keeps the projection database the service's queries read caught up with the
/// log: told of every position the log reaches, it has the new events folded on a background
/// thread, so the append is answered without waiting and the next report finds little or nothing
/// left to fold (a report still catches up itself first, so it never misses an append).
public actor ProjectionFollower {
    /// The projection database (`<data>/projections.sqlite`).
    public nonisolated let store: ProjectionStore
    private let live: LiveProjections
    private let home: ProjectionHome
    private let log: any EventStore
    private let logger: Logger

    package init(store: ProjectionStore, live: LiveProjections, home: ProjectionHome, log: any EventStore, logger: Logger) {
        self.store = store
        self.live = live
        self.home = home
        self.log = log
        self.logger = logger
    }

    /// Notes the new position for the background fold; returns at once, also while a fold runs.
    public nonisolated func logAdvanced(to position: UInt64) {
        live.catchUpSoon(to: position, home: home, log: log, logger: logger)
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
        live.catchUpSoon(to: log.lastPosition, home: home, log: log, logger: logger)
        return await settle()
    }

    /// The error the last background fold met, nil when it succeeded (the next append tries again).
    public var lastError: String? { live.lastBackgroundError }

    /// The position the database has folded up to.
    public nonisolated var foldedPosition: UInt64 { live.foldedPosition }
}
