import AuditService
import Hummingbird

/// The per-request context: who sent the request, once the middleware has checked it.
public struct ServerRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The endpoint whose gate (``EndpointGuard``) checked the request; its handler refuses to run otherwise.
    public var endpoint: Endpoint?
    /// The app whose signature was checked.
    public var appID: String?
    /// The logged-in user (endpoints that need a session).
    public var user: IdentityState.User?
    /// The session token (endpoints that need a session).
    var sessionToken: String?
    /// The 32 bytes of the SHA-256 of the body the signature covered (signed endpoints): a
    /// photo's upload checks the bytes against the hash it is named by with it.
    var bodyDigest: [UInt8]?

    /// The address of the connection's peer (`ip` or `ip:port` as NIO prints it; nil for a test client).
    public var peerAddress: String?

    public init(source: Source) {
        coreContext = .init(source: source)
        peerAddress = source.channel.remoteAddress?.ipAddress
    }

    /// The authenticated user, or a 401 problem when the route was reached without one.
    func requireUser() throws -> IdentityState.User {
        guard let user else {
            throw Problem.unauthorized("session-missing", "this request needs a session", remedy: "log in first")
        }
        return user
    }
}
