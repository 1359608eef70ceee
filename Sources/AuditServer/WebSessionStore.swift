import Crypto
import Foundation
import NIOConcurrencyHelpers

/// The browser's cookie sessions, in memory like the API's: a restart logs every browser out.
///
/// A session is found by the SHA-256 of its cookie value, so the store never holds a cookie a
/// browser could present. Each session has its own CSRF token, which every form of its pages
/// carries and every post must send back. Sessions last a fixed time from login (not extended
/// by use), like the API's.
final class WebSessionStore: Sendable {
    /// A live browser session.
    struct Session: Sendable, Hashable {
        var username: String
        /// The token every form of this session carries (hex, 64 characters).
        var csrfToken: String
        /// Microseconds since the epoch.
        var expiresAt: Int64
    }

    private let sessions = NIOLockedValueBox([String: Session]())
    private let lifetime: Int64

    init(lifetime: Duration) { self.lifetime = lifetime.microseconds }

    /// 32 random bytes as hex: cookie values, CSRF tokens and the login form's token.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return RequestSigning.hex((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    private static func key(_ cookie: String) -> String {
        RequestSigning.hex(Array(SHA256.hash(data: Array(cookie.utf8))))
    }

    /// Opens a session; returns the cookie value to set and the session.
    func create(username: String, now: Int64) -> (cookie: String, session: Session) {
        let cookie = Self.randomToken()
        let session = Session(username: username, csrfToken: Self.randomToken(), expiresAt: now + lifetime)
        sessions.withLockedValue { sessions in
            if sessions.count > 10_000 { sessions = sessions.filter { $0.value.expiresAt > now } }
            sessions[Self.key(cookie)] = session
        }
        return (cookie, session)
    }

    /// The live session of a cookie value; an expired one is forgotten.
    func resolve(_ cookie: String, now: Int64) -> Session? {
        let key = Self.key(cookie)
        return sessions.withLockedValue { sessions in
            guard let session = sessions[key] else { return nil }
            guard session.expiresAt > now else {
                sessions[key] = nil
                return nil
            }
            return session
        }
    }

    /// Ends the session of a cookie value.
    func remove(_ cookie: String) { _ = sessions.withLockedValue { $0.removeValue(forKey: Self.key(cookie)) } }

    /// Live sessions (for tests).
    var count: Int { sessions.withLockedValue { $0.count } }
}
