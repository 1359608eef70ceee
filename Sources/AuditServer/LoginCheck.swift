import AuditService
import Crypto
import Foundation

/// What a user name and password amount to: one decision shared by `POST /v1/sessions` and the
/// browser's login form, so both throttle guessing and answer alike.
enum LoginOutcome: Sendable {
    /// The password is right and the user enabled.
    case accepted(IdentityState.User)
    /// Wrong user name or password, or a disabled account (one answer, so neither shows).
    case failed
    /// Too many failures for this name from this source on this path: try again after this many seconds.
    case throttled(retryAfter: Int)
    /// Every password worker is taken and enough checks wait: try again after this many seconds.
    case busy(retryAfter: Int)
}

extension ServerState {
    /// Checks a login: a name no account can have (``IdentityState/isValidName(_:)``, the rule of
    /// `users add`) fails at once and is never counted or kept; otherwise the throttle for
    /// (path, name, source), then one bcrypt check on the password workers whatever the name
    /// (``AuditService/verifyLogin(username:password:)``), then a failure is counted. The user name
    /// is never logged: a line that must tell attempts apart carries ``loginTag(_:)``.
    func checkLogin(
        username: String, password: String, path: LoginThrottle.Path, source: String
    ) async throws -> LoginOutcome {
        // Such names cannot exist, so answering at once tells nothing, and a flood of them costs
        // neither a bcrypt check nor a slot in the throttle's table.
        guard IdentityState.isValidName(username) else { return .failed }
        let now = now
        if let wait = loginThrottle.retryAfter(path, username: username, source: source, now: now) {
            return .throttled(retryAfter: wait)
        }
        let service = service
        guard let user = try await loginWorkers.run({ service.verifyLogin(username: username, password: password) })
        else { return .busy(retryAfter: 1) }
        if let user {
            loginThrottle.clear(path, username: username, source: source)
            return .accepted(user)
        }
        if let wait = loginThrottle.recordFailure(path, username: username, source: source, now: now) {
            logger.notice("logins throttled", metadata: ["login": "\(loginTag(username))", "path": "\(path)"])
            return .throttled(retryAfter: wait)
        }
        return .failed
    }

    /// A short keyed hash of a user name: tells one name's attempts from another's in the log
    /// without writing the name (the key is random per process).
    func loginTag(_ username: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Array(username.utf8), using: SymmetricKey(data: loginTagKey))
        return RequestSigning.hex(Array(mac).prefix(8))
    }
}
