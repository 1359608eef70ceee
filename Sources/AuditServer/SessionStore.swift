import Foundation
import NIOConcurrencyHelpers

/// Live device sessions, in memory: a restart ends every session (devices log in again).
final class SessionStore: Sendable {
    /// A live session.
    struct Session: Sendable, Hashable {
        var username: String
        /// The app that logged in: the session is valid only in requests signed by it.
        var appID: String
        /// Microseconds since the epoch.
        var expiresAt: Int64
    }

    private struct State {
        var sessions: [String: Session] = [:]
    }

    private let state = NIOLockedValueBox(State())
    private let lifetime: Int64

    init(configuration: ServerConfiguration) {
        lifetime = configuration.sessionLifetime.microseconds
    }

    /// Opens a session after a good password.
    func create(username: String, appID: String, now: Int64) -> (token: String, session: Session) {
        var generator = SystemRandomNumberGenerator()
        let token = RequestSigning.hex((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let session = Session(username: username, appID: appID, expiresAt: now + lifetime)
        state.withLockedValue { state in
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
