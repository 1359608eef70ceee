import AuditLog
import Foundation
import Logging
import Projections

/// The projection database of a data directory, opened once and kept caught up with the log: what
/// a long-lived reader (the server, a report drawing many pages) reads its reports from.
///
/// Opening the database and asking the runner whether it is behind costs more than most reports
/// (a file lock, the migrations, the checkpoints); here a report pays for it only when the log
/// has moved on since the last one, and then folds just the new events. Every copy of an
/// ``AuditQueries`` made from one ``AuditService`` (or one ``AuditQueries/open(_:logger:note:)``)
/// shares one of these.
///
/// Catching up happens under one lock, so a report never reads a database another thread is
/// folding into halfway, and a report asked for after an append sees it (read-your-writes).
package final class LiveProjections: @unchecked Sendable {
    // @unchecked: `store`, `folded`, `wanted` and `following` are only touched while holding `lock`.
    private let lock = NSLock()
    private var store: ProjectionStore?
    /// The log position the open database has folded up to.
    private var folded: UInt64 = 0
    /// The furthest position a ``catchUpSoon(to:)`` asked for, and whether a background catch-up runs.
    private var wanted: UInt64 = 0
    private var following = false
    /// The last error a background catch-up met (the next one tries again).
    private var backgroundError: String?
    private let background = DispatchQueue(label: "itemaudit.projections.follow", qos: .utility)
    /// Shortest time between the starts of two background catch-ups. Each one pays a fixed price
    /// (the fold threads, the checkpoints, reading back the rows its events touch), so under a
    /// steady stream of appends folding every few milliseconds costs far more than folding what
    /// gathered in this long; a report asked for meanwhile still folds up to the log's end itself.
    private let followInterval: Duration
    /// When the last background catch-up started (touched only on `background`).
    private var lastFollowStart: ContinuousClock.Instant?

    package init(followInterval: Duration = .milliseconds(50)) {
        self.followInterval = followInterval
    }

    /// The open database, first caught up with the log's end when the log has moved on since the
    /// last call (opened, and when damaged set aside and rebuilt, the first time).
    /// - Throws: ``AuditServiceError`` `.projections` when it cannot be opened or folded.
    func caughtUp(
        directory: DataDirectory, log: any EventStore, logger: Logger, note: (String) -> Void
    ) throws -> ProjectionStore {
        lock.lock()
        defer { lock.unlock() }
        return try caughtUpLocked(to: log.lastPosition, directory: directory, log: log, logger: logger, note: note)
    }

    /// Folds up to `position` on a background thread, soon; returns at once. Several calls while
    /// one runs are folded together by the next run (an append is never kept waiting for it).
    func catchUpSoon(to position: UInt64, directory: DataDirectory, log: any EventStore, logger: Logger) {
        lock.lock()
        wanted = max(wanted, position)
        let start = !following
        following = true
        lock.unlock()
        guard start else { return }
        background.async { [self] in
            while true {
                // Appends arriving meanwhile are gathered into the next catch-up.
                if let lastFollowStart {
                    let wait = lastFollowStart + followInterval - .now
                    if wait > .zero { Thread.sleep(forTimeInterval: Self.seconds(wait)) }
                }
                lastFollowStart = .now
                lock.lock()
                let target = wanted
                guard folded < target || store == nil else {
                    following = false
                    lock.unlock()
                    return
                }
                do {
                    _ = try caughtUpLocked(to: target, directory: directory, log: log, logger: logger) {
                        logger.warning("\($0)")
                    }
                    backgroundError = nil
                } catch {
                    backgroundError = "\(error)"
                    logger.warning("projections could not catch up", metadata: ["error": "\(error)"])
                    following = false
                    lock.unlock()
                    return
                }
                lock.unlock()
            }
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Waits until the background catch-ups asked for so far are done; the error of the last
    /// one, if it failed.
    func settle() -> String? {
        background.sync {}
        lock.lock()
        defer { lock.unlock() }
        return backgroundError
    }

    /// The error the last background catch-up met, nil when it succeeded.
    var lastBackgroundError: String? {
        lock.lock()
        defer { lock.unlock() }
        return backgroundError
    }

    /// The position the open database has folded up to (0 before it is opened).
    var foldedPosition: UInt64 {
        lock.lock()
        defer { lock.unlock() }
        return folded
    }

    /// ``caughtUp(directory:log:logger:note:)`` up to `end`, with ``lock`` held.
    private func caughtUpLocked(
        to end: UInt64, directory: DataDirectory, log: any EventStore, logger: Logger, note: (String) -> Void
    ) throws -> ProjectionStore {
        if let store {
            if folded >= end { return store }
            do {
                try ProjectionRunner(logger: logger).catchUp(store, log: log, upTo: end)
                folded = max(folded, min(end, log.lastPosition))
                return store
            } catch {
                // Opened again below: a damaged database is set aside and rebuilt there.
                logger.warning("projections could not catch up; reopening", metadata: ["error": "\(error)"])
                self.store = nil
            }
        }
        let reached = log.lastPosition
        do {
            let opened = try ProjectionDatabase.caughtUp(
                dataDirectory: directory.url, log: log, logger: logger, note: note)
            store = opened
            folded = reached
            return opened
        } catch let error as ProjectionError {
            throw AuditServiceError(.projections, error.message)
        } catch let error as AuditServiceError {
            throw error
        } catch {
            throw AuditServiceError(.projections, "cannot bring the projections up to date: \(error)")
        }
    }
}
