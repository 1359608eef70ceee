import AuditService
import Foundation
import NIOPosix

/// What a user name and password amount to: one decision shared by `POST /v1/sessions` and the
/// browser's login form, so both count failures, lock accounts and refuse disabled users alike.
enum LoginOutcome: Sendable {
    /// The password is right and the user enabled.
    case accepted(IdentityState.User)
    /// Too many failures: locked until this time (microseconds), before or because of this try.
    case locked(until: Int64)
    /// Wrong user name or password (counted).
    case failed
    /// The password is right but the user is disabled.
    case disabled(String)
}

extension ServerState {
    /// Checks a login against the user store (bcrypt, off the event loops) and the lockout counts.
    func checkLogin(username: String, password: String) async throws -> LoginOutcome {
        let now = now
        if let until = sessions.lockedUntil(username, now: now) { return .locked(until: until) }
        let service = service
        // bcrypt is slow by design: keep it off the event loops and the cooperative pool.
        let user = try await NIOThreadPool.singleton.runIfActive {
            service.identity.user(username).flatMap { user in
                service.checkPassword(password, of: user) ? user : nil
            }
        }
        guard let user else {
            if let until = sessions.recordFailure(username, now: now) {
                logger.notice("account locked", metadata: ["user": "\(username)"])
                return .locked(until: until)
            }
            return .failed
        }
        guard !user.disabled else { return .disabled(user.username) }
        return .accepted(user)
    }
}
