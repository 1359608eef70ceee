import AuditService
import Foundation
import HTTPTypes
import Hummingbird

extension Routes {
    struct Login: Decodable {
        var username: String
        var password: String
    }

    struct SessionCreated: Encodable {
        var token: String
        var expiresAt: String
        var username: String
        var role: String
    }

    struct Me: Encodable {
        var username: String
        var name: String
        var role: String
        var appID: String
    }

    /// `POST /v1/sessions`: a fixed-length session for a good password; repeated failures lock
    /// the account for ``ServerConfiguration/lockoutDuration``.
    func createSession(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let login = try await decode(Login.self, request)
        let user: IdentityState.User
        switch try await server.checkLogin(username: login.username, password: login.password) {
        case .accepted(let accepted): user = accepted
        case .locked(let until):
            throw Problem(
                .tooManyRequests, "account-locked",
                "too many failed logins; the account is locked until \(Timestamp(microsecondsSinceEpoch: until).iso8601)",
                remedy: "wait, or ask an admin to set a new password")
        case .failed:
            throw Problem.unauthorized(
                "login-failed", "the user name or password is wrong", remedy: "check both and try again")
        case .disabled(let username):
            throw Problem.unauthorized("user-disabled", "user '\(username)' is disabled", remedy: "ask an admin")
        }
        let now = server.now
        let (token, session) = server.sessions.create(username: user.username, appID: context.appID ?? "", now: now)
        return try json(
            SessionCreated(
                token: token, expiresAt: Timestamp(microsecondsSinceEpoch: session.expiresAt).iso8601,
                username: user.username, role: user.role.name),
            status: .created)
    }

    /// `DELETE /v1/sessions/current`: logs out.
    func deleteSession(_ context: ServerRequestContext) throws -> Response {
        if let token = context.sessionToken { server.sessions.remove(token) }
        return Response(status: .noContent)
    }

    /// `GET /v1/me`: who the session belongs to.
    func me(_ context: ServerRequestContext) throws -> Response {
        let user = try context.requireUser()
        return try json(Me(username: user.username, name: user.name, role: user.role.name, appID: context.appID ?? ""))
    }
}
