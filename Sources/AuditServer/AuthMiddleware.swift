import AuditService
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Checks, before any work: the signature (app, timestamp window, HMAC over the request, unused
/// transaction id), then the session, then the permission table. Reads the body (with the
/// route's size limit) because the signature covers it.
struct AuthMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let server: ServerState

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        // The outer ProblemMiddleware matched the route already.
        guard let endpoint = context.endpoint ?? Endpoint.match(method: request.method, path: request.uri.path) else {
            return try await next(request, context)
        }
        var context = context
        context.endpoint = endpoint
        guard endpoint.authentication != .none else { return try await next(request, context) }
        var request = request
        let limit =
            endpoint == .uploadPhoto ? server.service.configuration.photos.maxBytes : server.configuration.maxBodyBytes
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw Problem(
                .contentTooLarge, "body-too-large", "the body is larger than \(limit) bytes",
                remedy: "send smaller bundles or photos")
        }
        let bodyDigest = body.withUnsafeReadableBytes { SHA256.hash(data: $0) }
        context.appID = try server.verifySignature(request, bodyDigest: bodyDigest)
        context.bodyDigest = Array(bodyDigest)
        if endpoint.authentication == .session {
            let (token, user) = try verifySession(request, appID: context.appID ?? "")
            guard PermissionTable.allows(user.role, endpoint) else {
                throw Problem.forbidden("role \(user.role.name) may not call \(request.method) \(endpoint.path)")
            }
            context.user = user
            context.sessionToken = token
        }
        return try await next(request, context)
    }

    /// The session token and its enabled user; a 401 problem otherwise.
    func verifySession(_ request: Request, appID: String) throws -> (String, IdentityState.User) {
        guard let authorization = request.headers[.authorization], authorization.hasPrefix("Bearer ") else {
            throw Problem.unauthorized(
                "session-missing", "no session token (Authorization: Bearer …)", remedy: "log in: POST /v1/sessions")
        }
        let token = String(authorization.dropFirst("Bearer ".count))
        switch server.sessions.resolve(token, now: server.now) {
        case .unknown:
            throw Problem.unauthorized(
                "session-unknown", "the session token is not known (the server restarted, or you logged out)",
                remedy: "log in again")
        case .expired:
            throw Problem.unauthorized("session-expired", "the session expired", remedy: "log in again")
        case .live(let session):
            guard session.appID == appID else {
                throw Problem.unauthorized(
                    "session-app-mismatch", "the session belongs to another app", remedy: "log in from this app")
            }
            guard let user = server.service.identity.user(session.username), !user.disabled else {
                server.sessions.remove(token)
                throw Problem.unauthorized(
                    "user-disabled", "user '\(session.username)' is disabled", remedy: "ask an admin")
            }
            return (token, user)
        }
    }
}
