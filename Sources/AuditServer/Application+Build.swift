import AuditService
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import NIOSSL

/// Builds the router: the middleware that runs before routing (problems, logs and metrics; the
/// host and body-size checks), then one route per ``Endpoint`` and per ``WebRoute``, each behind
/// its own gate. Authentication belongs to the route the router picked, never to a second
/// reading of the path, so every path form the router accepts is checked as its canonical form.
public func buildRouter(_ server: ServerState) -> Router<ServerRequestContext> {
    let router = Router(context: ServerRequestContext.self)
    let labels = RouteLabels()
    router.addMiddleware {
        ProblemMiddleware(server: server, labels: labels)
        FrontDoorMiddleware(hosts: AllowedHosts(configuration: server.configuration), bodyCap: largestBody(server))
    }
    let routes = Routes(server: server)
    for endpoint in Endpoint.allCases {
        let path = RouterPath(endpoint.path)
        router.group().add(middleware: EndpointGuard(endpoint: endpoint, server: server))
            .on(path, method: endpoint.method) { request, context in
                try await routes.handle(endpoint, request, context)
            }
    }
    // The browser's pages: cookie sessions, not signatures (see WebRoute).
    let site = WebSite(server: server)
    for route in WebRoute.allCases {
        let path = RouterPath(route.path)
        router.group().add(middleware: WebRouteGuard(route: route, server: server))
            .on(path, method: route.method) { request, context in
                await site.handle(route, request, context)
            }
    }
    return router
}

/// The largest body any route takes: the server-wide cap checked before routing.
func largestBody(_ server: ServerState) -> Int {
    (Endpoint.allCases.map { $0.bodyLimit(server) } + WebRoute.allCases.map { $0.bodyLimit(server) }).max() ?? 0
}

/// Builds the HTTP application over an open ``AuditService``: plain HTTP (loopback only) or
/// HTTPS with the configured certificate, plus the background expiry service.
/// - Throws: ``Problem``-free configuration errors as `ServerSetupError`.
public func buildApplication(
    service: AuditService, configuration: ServerConfiguration, logger: Logger,
    onServerRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
) throws -> some ApplicationProtocol {
    let server = ServerState(service: service, configuration: configuration, logger: logger)
    return try buildApplication(server, onServerRunning: onServerRunning)
}

/// ``buildApplication(service:configuration:logger:)`` with the shared state made by the caller.
public func buildApplication(
    _ server: ServerState, onServerRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
) throws -> some ApplicationProtocol {
    let configuration = server.configuration
    if ["0.0.0.0", "::", ""].contains(configuration.host), configuration.publicURLs.isEmpty {
        throw ServerSetupError(
            "listening on every address, the server cannot tell its own host names from a rebound one; give --public-url with each URL it is reached by"
        )
    }
    let tlsConfiguration: TLSConfiguration?
    if let tls = configuration.tls {
        do {
            let certificates = try NIOSSLCertificate.fromPEMFile(tls.certificate).map {
                NIOSSLCertificateSource.certificate($0)
            }
            let key = try NIOSSLPrivateKey(file: tls.key, format: .pem)
            tlsConfiguration = TLSConfiguration.makeServerConfiguration(
                certificateChain: certificates, privateKey: .privateKey(key))
        } catch {
            throw ServerSetupError(
                "cannot load the TLS certificate or key: \(error) (give PEM files with --tls-cert and --tls-key)")
        }
    } else {
        guard configuration.isLoopback else {
            throw ServerSetupError(
                "plain HTTP is only served on loopback; \(configuration.host) needs --tls-cert and --tls-key")
        }
        tlsConfiguration = nil
    }
    let onEventLoops = configuration.handlesOnEventLoops
    let serverBuilder = HTTPServerBuilder { responder in
        let http = HTTP1Channel(
            responder: responder,
            configuration: .init(
                additionalChannelHandlers: [
                    RequestDeadlineHandler(
                        headTimeout: TimeAmount(configuration.requestHeadTimeout),
                        minimumBytesPerSecond: configuration.minimumBodyBytesPerSecond)
                ],
                idleTimeout: TimeAmount(configuration.idleTimeout)))
        let checked = AbsoluteFormHostChannel(base: http)
        guard let tlsConfiguration else { return EventLoopPinnedChannel(base: checked, pinned: onEventLoops) }
        return EventLoopPinnedChannel(
            base: try TLSChannel(checked, tlsConfiguration: tlsConfiguration), pinned: onEventLoops)
    }
    return Application(
        router: buildRouter(server),
        server: serverBuilder,
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "itemaudit"),
        services: [ExpiryService(server: server), ReportUpkeepService(server: server), MemoryTrimService()],
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) },
        logger: server.logger)
}

/// The server cannot start as configured.
public struct ServerSetupError: Error, Sendable, CustomStringConvertible {
    /// What is wrong and what to do.
    public var message: String
    init(_ message: String) { self.message = message }
    public var description: String { message }
}
