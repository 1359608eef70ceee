import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// Encoded answers of report reads (coverage), kept while the log has not moved, so a dashboard
/// polled by many clients runs its query once per change instead of once per request.
///
/// An answer is keyed by the route and its query and stored with the log position it reflects
/// (read before the query ran: the query catches the projections up to at least that position).
/// It is served only while the log still ends at that position, so a write acknowledged before a
/// read is always in its answer. Answers that also depend on the clock (`coverage` without `to`
/// counts products overdue *now*) are reused for at most ``clockSlack``. Requests that miss at the
/// same position share one run of the query instead of each starting their own.
final class AnswerCache: Sendable {
    private struct Entry {
        var position: UInt64
        /// Microseconds since the epoch, taken before the query ran.
        var computedAt: Int64
        var body: ByteBuffer
    }

    private struct Flight {
        var position: UInt64
        var task: Task<ByteBuffer, any Error>
    }

    private enum Found {
        case kept(ByteBuffer)
        case running(Task<ByteBuffer, any Error>)
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var flights: [String: Flight] = [:]
    }

    /// How long a clock-dependent answer is reused while the log stands still (microseconds).
    let clockSlack: Int64
    /// Most answers kept; past it the oldest half is dropped.
    let capacity: Int
    private let clock: @Sendable () -> Int64
    private let state = NIOLockedValueBox(State())

    /// A cache on `clock` (microseconds since the epoch; the system clock, which the queries use).
    init(
        clockSlack: Int64 = 1_000_000, capacity: Int = 256,
        clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1_000_000) }
    ) {
        self.clockSlack = clockSlack
        self.capacity = max(1, capacity)
        self.clock = clock
    }

    /// The answer for `key` at log `position`: the kept one while valid, else the one a query
    /// already running at that position gives, else `compute`'s (then kept).
    func answer(
        _ key: String, position: UInt64, dependsOnClock: Bool,
        compute: @escaping @Sendable () async throws -> ByteBuffer
    ) async throws -> ByteBuffer {
        let now = clock()
        let found: Found = state.withLockedValue { state in
            if let entry = state.entries[key], entry.position == position,
                !dependsOnClock || (entry.computedAt...entry.computedAt + clockSlack).contains(now)
            {
                return .kept(entry.body)
            }
            if let flight = state.flights[key], flight.position == position { return .running(flight.task) }
            let task = Task { [self] in
                defer { finish(key, position: position) }
                let body = try await compute()
                store(key, position: position, computedAt: now, body: body)
                return body
            }
            state.flights[key] = Flight(position: position, task: task)
            return .running(task)
        }
        switch found {
        case .kept(let body): return body
        case .running(let task): return try await task.value
        }
    }

    private func finish(_ key: String, position: UInt64) {
        state.withLockedValue { state in
            if state.flights[key]?.position == position { state.flights[key] = nil }
        }
    }

    private func store(_ key: String, position: UInt64, computedAt: Int64, body: ByteBuffer) {
        state.withLockedValue { state in
            if state.entries[key] == nil, state.entries.count >= capacity {
                let oldest = state.entries.sorted { $0.value.computedAt < $1.value.computedAt }
                for (key, _) in oldest.prefix(capacity / 2 + 1) { state.entries[key] = nil }
            }
            state.entries[key] = Entry(position: position, computedAt: computedAt, body: body)
        }
    }
}
