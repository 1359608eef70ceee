import Foundation
import NIOConcurrencyHelpers

/// Live sessions and failed-login counts, in memory: a restart ends every session (devices log
/// in again), and lockouts are not events (a stranger's guesses must not grow the log).
final class SessionStore: Sendable {
    /// A live session.
    struct Session: Sendable, Hashable {
        var username: String
        /// The app that logged in: the session is valid only in requests signed by it.
        var appID: String
        /// Microseconds since the epoch.
        var expiresAt: Int64
    }

    private struct Failures {
        var count = 0
        var lockedUntil: Int64?
    }

    private struct State {
        var sessions: [String: Session] = [:]
        var failures: [String: Failures] = [:]
    }

    private let state = NIOLockedValueBox(State())
    private let lifetime: Int64
    private let maxFailures: Int
    private let lockout: Int64

    init(configuration: ServerConfiguration) {
        lifetime = configuration.sessionLifetime.microseconds
        maxFailures = max(1, configuration.maxFailedLogins)
        lockout = configuration.lockoutDuration.microseconds
    }

    /// When the account's lock ends, if it is locked at `now`.
    func lockedUntil(_ username: String, now: Int64) -> Int64? {
        state.withLockedValue { state in
            guard let until = state.failures[username]?.lockedUntil else { return nil }
            if until > now { return until }
            state.failures[username] = nil
            return nil
        }
    }

    /// Counts a failed login; returns when the account is now locked until, if it is.
    func recordFailure(_ username: String, now: Int64) -> Int64? {
        state.withLockedValue { state in
            var failures = state.failures[username] ?? Failures()
            failures.count += 1
            if failures.count >= maxFailures {
                failures.count = 0
                failures.lockedUntil = now + lockout
            }
            state.failures[username] = failures
            return failures.lockedUntil
        }
    }

    /// Forgets the failed logins of a user who just logged in (the browser's form; `create` does it for the API).
    func clearFailures(_ username: String) { _ = state.withLockedValue { $0.failures.removeValue(forKey: username) } }

    /// Opens a session after a good password; resets the failure count.
    func create(username: String, appID: String, now: Int64) -> (token: String, session: Session) {
        var generator = SystemRandomNumberGenerator()
        let token = RequestSigning.hex((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let session = Session(username: username, appID: appID, expiresAt: now + lifetime)
        state.withLockedValue { state in
            state.failures[username] = nil
            if state.sessions.count > 10_000 { state.sessions = state.sessions.filter { $0.value.expiresAt > now } }
            state.sessions[token] = session
        }
        return (token, session)
    }

    /// The session of `token`: `.live`, `.expired` (and forgotten) or `.unknown`.
    func resolve(_ token: String, now: Int64) -> Resolution {
        state.withLockedValue { state in
            guard let session = state.sessions[token] else { return .unknown }
            guard session.expiresAt > now else {
                state.sessions[token] = nil
                return .expired
            }
            return .live(session)
        }
    }

    /// Ends a session.
    func remove(_ token: String) { _ = state.withLockedValue { $0.sessions.removeValue(forKey: token) } }

    enum Resolution {
        case live(Session)
        case expired
        case unknown
    }
}
