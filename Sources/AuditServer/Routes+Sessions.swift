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
        /// The highest of `roles`, for clients that read one role.
        var role: String
        var roles: [String]
    }

    struct Me: Encodable {
        var username: String
        var name: String
        /// The highest of `roles`, for clients that read one role.
        var role: String
        var roles: [String]
        var appID: String
    }

    /// `POST /v1/sessions`: a fixed-length session for a good password. Guessing is slowed per
    /// (user name, source) on this signed path alone, so failures on the web form never stop a device.
    func createSession(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let login = try await decode(Login.self, request)
        let source = ClientAddress.source(
            request, peer: context.peerAddress, trustedProxies: server.configuration.trustedProxies)
        let user: IdentityState.User
        switch try await server.checkLogin(
            username: login.username, password: login.password, path: .device, source: source)
        {
        case .accepted(let accepted): user = accepted
        case .failed:
            throw Problem.unauthorized(
                "login-failed", "the user name or password is wrong", remedy: "check both and try again")
        case .throttled(let wait):
            var problem = Problem(
                .tooManyRequests, "login-throttled",
                "too many failed logins for this user name from this address; try again in \(wait) s",
                remedy: "wait, then check the user name and password (an admin can set a new password)")
            problem.retryAfter = wait
            throw problem
        case .busy(let wait):
            var problem = Problem(
                .tooManyRequests, "login-busy", "every password check is taken; this one was not started",
                remedy: "send the login again after Retry-After seconds")
            problem.retryAfter = wait
            throw problem
        }
        let now = server.now
        let (token, session) = server.sessions.create(username: user.username, appID: context.appID ?? "", now: now)
        return try json(
            SessionCreated(
                token: token, expiresAt: Timestamp(microsecondsSinceEpoch: session.expiresAt).iso8601,
                username: user.username, role: user.primaryRole.name, roles: user.roleNames),
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
        return try json(
            Me(
                username: user.username, name: user.name, role: user.primaryRole.name, roles: user.roleNames,
                appID: context.appID ?? ""))
    }
}
