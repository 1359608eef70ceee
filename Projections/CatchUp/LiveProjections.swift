import AuditLog
import Foundation
import Logging

/// The projection database of a data directory, opened once and kept caught up with the log: what
/// a long-lived reader (the server, a report drawing many pages) reads its reports from.
///
/// Opening the database and asking the runner whether it is behind costs more than most reports
/// (a file lock, the migrations, the checkpoints); here a report pays for it only when the log
/// has moved on since the last one, and then folds just the new events. Every reader of one
/// service's queries shares one of these.
///
/// Catching up happens under one lock, so a report never reads a database another thread is
/// folding into halfway, and a report asked for after an append sees it (read-your-writes).
/// Asking for a catch-up takes another lock, never held across a fold.
package final class LiveProjections: @unchecked Sendable {
    // @unchecked: `store` and `folded` are only touched while holding `foldLock`; `wanted`,
    // `following`, `backgroundError` and `published` only while holding `requestLock`.
    /// Held for a whole catch-up: a report never reads a database another thread is folding into.
    private let foldLock = NSLock()
    /// Held only to note or read a request, never across a fold: the group writer asks for a
    /// catch-up after every append and must not wait for one that is running.
    private let requestLock = NSLock()
    private var store: ProjectionStore?
    /// The log position the open database has folded up to.
    private var folded: UInt64 = 0
    /// ``folded`` as of the last catch-up, for readers that must not wait for a running one.
    private var published: UInt64 = 0
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
    /// - Throws: ``ProjectionError`` when it cannot be opened or folded.
    package func caughtUp(
        home: ProjectionHome, log: any EventStore, logger: Logger, note: (String) -> Void
    ) throws -> ProjectionStore {
        foldLock.lock()
        defer { foldLock.unlock() }
        return try caughtUpLocked(to: log.lastPosition, home: home, log: log, logger: logger, note: note)
    }

    /// Folds up to `position` on a background thread, soon; returns at once, also while a
    /// catch-up runs. Several calls while one runs are folded together by the next run (an append
    /// is never kept waiting for it).
    package func catchUpSoon(to position: UInt64, home: ProjectionHome, log: any EventStore, logger: Logger) {
        requestLock.lock()
        wanted = max(wanted, position)
        let start = !following
        following = true
        requestLock.unlock()
        guard start else { return }
        background.async { [self] in
            while true {
                // Appends arriving meanwhile are gathered into the next catch-up.
                if let lastFollowStart {
                    let wait = lastFollowStart + followInterval - .now
                    if wait > .zero { Thread.sleep(forTimeInterval: Self.seconds(wait)) }
                }
                lastFollowStart = .now
                requestLock.lock()
                let target = wanted
                requestLock.unlock()
                let reached: UInt64
                do {
                    reached = try followedUp(to: target, home: home, log: log, logger: logger)
                } catch {
                    logger.warning("projections could not catch up", metadata: ["error": "\(error)"])
                    requestLock.lock()
                    backgroundError = "\(error)"
                    following = false
                    requestLock.unlock()
                    return
                }
                requestLock.lock()
                backgroundError = nil
                // Decided under the lock a request takes: a request after this starts the next run.
                if wanted <= reached {
                    following = false
                    requestLock.unlock()
                    return
                }
                requestLock.unlock()
            }
        }
    }

    /// One background catch-up up to `target`; the position folded up to.
    private func followedUp(
        to target: UInt64, home: ProjectionHome, log: any EventStore, logger: Logger
    ) throws -> UInt64 {
        foldLock.lock()
        defer { foldLock.unlock() }
        if folded < target || store == nil {
            _ = try caughtUpLocked(to: target, home: home, log: log, logger: logger) {
                logger.warning("\($0)")
            }
        }
        return folded
    }

    /// Runs `body` as if a catch-up were folding meanwhile (the fold lock held): for tests.
    package func whileFolding<T>(_ body: () throws -> T) rethrows -> T {
        foldLock.lock()
        defer { foldLock.unlock() }
        return try body()
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Waits until the background catch-ups asked for so far are done; the error of the last
    /// one, if it failed.
    package func settle() -> String? {
        background.sync {}
        requestLock.lock()
        defer { requestLock.unlock() }
        return backgroundError
    }

    /// The error the last background catch-up met, nil when it succeeded.
    package var lastBackgroundError: String? {
        requestLock.lock()
        defer { requestLock.unlock() }
        return backgroundError
    }

    /// The position the database had folded up to when the last catch-up ended (0 before it is
    /// opened); does not wait for one that is running.
    package var foldedPosition: UInt64 {
        requestLock.lock()
        defer { requestLock.unlock() }
        return published
    }

    /// Sets ``folded`` (with ``foldLock`` held) and publishes it to ``foldedPosition``.
    private func setFolded(_ position: UInt64) {
        folded = position
        requestLock.lock()
        published = position
        requestLock.unlock()
    }

    /// ``caughtUp(home:log:logger:note:)`` up to `end`, with ``foldLock`` held.
    private func caughtUpLocked(
        to end: UInt64, home: ProjectionHome, log: any EventStore, logger: Logger, note: (String) -> Void
    ) throws -> ProjectionStore {
        if let store {
            if folded >= end { return store }
            do {
                try ProjectionRunner(logger: logger).catchUp(store, log: log, upTo: end)
                setFolded(max(folded, min(end, log.lastPosition)))
                return store
            } catch {
                // Opened again below: a damaged database is set aside and rebuilt there.
                logger.warning("projections could not catch up; reopening", metadata: ["error": "\(error)"])
                self.store = nil
            }
        }
        let reached = log.lastPosition
        do {
            let opened = try ProjectionDatabase.caughtUp(home, log: log, logger: logger, note: note)
            store = opened
            setFolded(reached)
            return opened
        } catch let error as ProjectionError {
            throw error
        } catch {
            throw ProjectionError(.database, "cannot bring the projections up to date: \(error)")
        }
    }
}
