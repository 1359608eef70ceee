import AuditLog
import Logging
import NIOCore
import PostgresNIO

/// Follows a log shared with other servers: `LISTEN`s on ``PostgresEventStore/notifyChannel``
/// on a connection of its own, moves the store's known head forward on every notification, and
/// hands the new last position to ``positions``. Every commit notifies with its last position,
/// head hash and time, and PostgreSQL delivers notifications in commit order, which is position
/// order (see ``PostgresEventStore``): a position received means everything up to it can be read.
///
/// A poll of the head row every ``pollInterval`` covers what a notification cannot (the
/// connection lost and re-made meanwhile); after a lost connection it reconnects with backoff.
public final class PostgresLogSubscription: Sendable {
    /// The newest last position known, coalesced: a slow reader gets the latest, not every step.
    public let positions: AsyncStream<UInt64>
    /// How often the head row is polled besides the notifications.
    public let pollInterval: Duration
    private let task: Task<Void, Never>

    /// Starts following `store`'s database.
    public init(store: PostgresEventStore, pollInterval: Duration = .seconds(1)) {
        self.positions = store.observePositions()
        self.pollInterval = pollInterval
        task = Task { await Self.follow(store: store, pollInterval: pollInterval) }
    }

    /// Stops listening and finishes ``positions``.
    public func stop() { task.cancel() }

    deinit { task.cancel() }

    /// Parses a notification's payload: `position hash-hex recorded-at`.
    static func head(fromPayload payload: String) -> PostgresEventStore.Head? {
        let parts = payload.split(separator: " ")
        guard parts.count == 3, let position = UInt64(parts[0]), let hash = RecordChain.bytes(hex: String(parts[1])),
            let recordedAt = Int64(parts[2])
        else { return nil }
        return PostgresEventStore.Head(position: position, hash: hash, recordedAt: recordedAt)
    }

    private static func follow(store: PostgresEventStore, pollInterval: Duration) async {
        var backoff = Duration.milliseconds(100)
        while !Task.isCancelled {
            do {
                let connection = try await store.pool.connectDedicated()
                defer { connection.close().whenComplete { _ in _ = connection } }
                try await connection.listen(on: PostgresEventStore.notifyChannel) { notifications in
                    // What was committed before the LISTEN took effect is read from the head row.
                    _ = try await store.refresh()
                    backoff = .milliseconds(100)
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for try await note in notifications {
                                if let head = head(fromPayload: note.payload) { store.learn(head) }
                            }
                            throw PostgresLogError(
                                .unreachable, "the notification connection to \(store.url.redacted) closed")
                        }
                        group.addTask {
                            while true {
                                try await Task.sleep(for: pollInterval)
                                _ = try await store.refresh()
                            }
                        }
                        _ = try await group.next()
                        group.cancelAll()
                    }
                }
            } catch {
                if Task.isCancelled { return }
                store.logger.info(
                    "the log subscription lost its connection; reconnecting",
                    metadata: ["url": "\(store.url.redacted)", "error": "\(error)"])
                try? await Task.sleep(for: backoff)
                backoff = min(backoff * 2, .seconds(5))
            }
        }
    }
}
