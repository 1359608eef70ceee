import AuditService
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The gate of one ``Endpoint``, added to that endpoint's route alone, so what it checks is
/// decided by the route the router picked, whatever form of the path reached it. Before any work:
/// the body within the endpoint's limit (the signature covers it), then who sent the request as
/// the endpoint's ``Endpoint/Authentication`` asks, then the permission table.
struct EndpointGuard: RouterMiddleware {
    typealias Context = ServerRequestContext
    let endpoint: Endpoint
    let server: ServerState

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        var request = request
        let limit = endpoint.bodyLimit(server)
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw Problem.bodyTooLarge(limit: limit, route: "\(endpoint.method) \(endpoint.path)")
        }
        switch endpoint.authentication {
        case .none:
            break
        case .signature:
            let digest = body.withUnsafeReadableBytes { SHA256.hash(data: $0) }
            context.appID = try server.verifySignature(request, bodyDigest: digest)
            context.bodyDigest = Array(digest)
        case .session:
            let user: IdentityState.User
            if !Self.isBrowserRequest(request) {
                let digest = body.withUnsafeReadableBytes { SHA256.hash(data: $0) }
                let appID = try server.verifySignature(request, bodyDigest: digest)
                let (token, sessionUser) = try verifySession(request, appID: appID)
                context.appID = appID
                context.bodyDigest = Array(digest)
                context.sessionToken = token
                user = sessionUser
            } else {
                user = try verifyBrowserSession(request)
                if body.readableBytes > 0 {
                    context.bodyDigest = Array(body.withUnsafeReadableBytes { SHA256.hash(data: $0) })
                }
            }
            guard PermissionTable.allows(user.roles, endpoint) else {
                throw Problem.forbidden(
                    "roles \(user.roleNames.joined(separator: ", ")) may not call \(endpoint.method) \(endpoint.path)")
            }
            context.user = user
        }
        context.endpoint = endpoint
        var response = try await next(request, context)
        CachePolicy.apply(endpoint.cachePolicy, to: &response.headers, status: response.status)
        return response
    }

    /// Whether the request is a browser's: the web session cookie and no part of a device's
    /// signed request (no signature header, no bearer token). Anything else is judged as a
    /// device's, so a request with neither is told what a signature needs.
    static func isBrowserRequest(_ request: Request) -> Bool {
        guard request.cookies[WebSecurity.sessionCookie] != nil, request.headers[.authorization] == nil else {
            return false
        }
        return !request.headers.contains { deviceFields.contains($0.name) }
    }

    private static let deviceFields = Set(
        [
            RequestSigning.appHeader, RequestSigning.transactionHeader, RequestSigning.timestampHeader,
            RequestSigning.signatureHeader,
        ].map { HTTPField.Name($0)! })

    /// The user of a browser's web session: the session cookie and, because a browser sends its
    /// cookies with requests other sites make, the session's CSRF token in `X-CSRF-Token` from a
    /// same-origin page; a 401 or 403 problem otherwise.
    func verifyBrowserSession(_ request: Request) throws -> IdentityState.User {
        guard let cookie = request.cookies[WebSecurity.sessionCookie]?.value,
            let session = server.webSessions.resolve(cookie, now: server.now)
        else {
            throw Problem.unauthorized(
                "session-unknown", "the web session is not known or has expired", remedy: "log in again at /login")
        }
        guard WebSecurity.isSameOrigin(request) else {
            throw Problem.forbidden(
                "the request comes from another site", remedy: "call the API from this server's own pages")
        }
        guard WebSecurity.tokensMatch(request.headers[Self.csrfField], session.csrfToken) else {
            throw Problem.forbidden(
                "the X-CSRF-Token header is missing or is not this session's token",
                remedy: "send the token the app received with its session")
        }
        guard let user = server.service.identity.user(session.username), !user.disabled else {
            server.webSessions.remove(cookie)
            throw Problem.unauthorized("session-unknown", "the web session has ended", remedy: "log in again at /login")
        }
        return user
    }

    /// The header a browser's request carries its session's CSRF token in.
    static let csrfField = HTTPField.Name("X-CSRF-Token")!

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
