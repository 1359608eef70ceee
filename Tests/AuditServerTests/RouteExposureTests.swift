import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuditServer

/// Generated from the router's own list of routes: every route, in every form of its path a
/// client can send, without credentials, over a real socket. Only the routes public on purpose
/// may answer 2xx, a foreign host is refused, and a body over a route's limit is a 413.
@Suite("Every route in every path form")
struct RouteExposureTests {
    /// A route as the router holds it, with what the server knows of it.
    struct RoutedPath {
        var method: HTTPRequest.Method
        /// The pattern with its parameters filled in.
        var path: String
        var isPublic: Bool
        var bodyLimit: Int
    }

    /// Every route of the router, each found in ``Endpoint`` or ``WebRoute`` (a route in neither
    /// list fails the test: it would have no gate).
    static func routedPaths(_ server: ServerState) throws -> [RoutedPath] {
        var known: [String: RoutedPath] = [:]
        for endpoint in Endpoint.allCases {
            known["\(endpoint.method) \(RouterPath(endpoint.path))"] = RoutedPath(
                method: endpoint.method, path: endpoint.path, isPublic: endpoint.authentication == .none,
                bodyLimit: endpoint.bodyLimit(server))
        }
        for route in WebRoute.allCases {
            known["\(route.method) \(RouterPath(route.path))"] = RoutedPath(
                method: route.method, path: route.path, isPublic: !route.needsSession, bodyLimit: route.bodyLimit(server))
        }
        return try buildRouter(server).routes.map { route in
            let key = "\(route.method) \(route.path)"
            var routed = try #require(known[key], "\(key) is routed but is neither an Endpoint nor a WebRoute")
            routed.path = concrete(routed.path)
            return routed
        }
    }

    /// A pattern with a plausible value for each parameter.
    static func concrete(_ pattern: String) -> String {
        // The app's files: a real one, so the public routes answer from their handler.
        if pattern == WebRoute.appFile.path { return "/app/sw.js" }
        if pattern == WebRoute.appAsset.path { return "/app/\(AppAssets.version)/main.js" }
        return pattern.replacingOccurrences(of: "{sha256}", with: String(repeating: "a", count: 64))
            .replacingOccurrences(of: "{batchID}", with: "B1").replacingOccurrences(of: "{taskID}", with: "T1")
            .replacingOccurrences(of: "{gtin}", with: ServerFixture.gtin(0))
    }

    /// The path and forms of it that a lenient router or a proxy might take for the same route.
    static func forms(_ path: String) -> [String] {
        var forms = [
            path, path + "/", "/" + path, path + "/.", "/." + path, "/x/.." + path, path.uppercased(),
            path.replacingOccurrences(of: "/", with: "//"),
        ]
        if let last = path.lastIndex(of: "/"), last != path.startIndex {
            forms.append(path[..<last] + "%2F" + path[path.index(after: last)...])
            forms.append(path[..<last] + "/" + path[last...])
        }
        return forms
    }

    /// The request line and headers of a request without credentials.
    static func head(_ method: HTTPRequest.Method, _ target: String, host: String, extra: [String] = []) -> String {
        ([("\(method.rawValue) \(target) HTTP/1.1"), "Host: \(host)"] + extra).joined(separator: "\r\n")
    }

    static func withServer(_ body: @Sendable @escaping (ServerFixture, Int) async throws -> Void) async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.live) { client in
            try await body(fixture, try #require(client.port))
        }
    }

    @Test("without credentials no route answers 2xx in any path form, but the public ones in their own")
    func noUnauthenticatedAnswers() async throws {
        try await Self.withServer { fixture, port in
            let routes = try Self.routedPaths(fixture.server)
            #expect(routes.count == Endpoint.allCases.count + WebRoute.allCases.count)
            let host = "127.0.0.1:\(port)"
            var tried = 0
            for route in routes {
                let length = route.method == .get ? [] : ["Content-Length: 0"]
                for form in Self.forms(route.path) where !(route.isPublic && form == route.path) {
                    for target in [form, "http://\(host)\(form)"] {
                        let answer = try await RawHTTP.exchange(
                            port: port, head: Self.head(route.method, target, host: host, extra: length))
                        tried += 1
                        #expect(
                            !(200..<300).contains(answer.status) || route.isPublic,
                            "\(route.method) \(target) answered \(answer.status) without credentials")
                    }
                }
                if route.isPublic {
                    let answer = try await RawHTTP.exchange(
                        port: port, head: Self.head(route.method, route.path, host: host, extra: length))
                    // Answered by its handler (the login post without its form token: 403), not refused as unknown.
                    #expect(answer.status < 500 && answer.status != 404, "public \(route.path): \(answer.status)")
                }
            }
            #expect(tried > 400)
        }
    }

    @Test("a request for another host is refused on every route: Host header and absolute form alike (421)")
    func foreignHost() async throws {
        try await Self.withServer { fixture, port in
            for route in try Self.routedPaths(fixture.server) {
                let length = route.method == .get ? [] : ["Content-Length: 0"]
                let named = try await RawHTTP.exchange(
                    port: port, head: Self.head(route.method, route.path, host: "evil.example", extra: length))
                #expect(named.status == 421, "\(route.method) \(route.path) for Host evil.example: \(named.status)")
                let absolute = try await RawHTTP.exchange(
                    port: port,
                    head: Self.head(
                        route.method, "http://evil.example\(route.path)", host: "127.0.0.1:\(port)", extra: length))
                #expect(absolute.status == 421, "\(route.method) http://evil.example\(route.path): \(absolute.status)")
            }
            // Loopback names on any port pass.
            for host in ["localhost", "localhost:1", "127.0.0.1", "[::1]:\(port)", "127.1.2.3:9"] {
                let answer = try await RawHTTP.exchange(port: port, head: Self.head(.get, "/health", host: host))
                #expect(answer.status == 200, "Host \(host): \(answer.status)")
            }
        }
    }

    @Test("every route refuses a body over its own limit with 413, declared or chunked, before any credentials")
    func bodyLimits() async throws {
        try await Self.withServer { fixture, port in
            let cap = largestBody(fixture.server)
            let host = "127.0.0.1:\(port)"
            for route in try Self.routedPaths(fixture.server) {
                let size = route.bodyLimit + 1
                // Over the server-wide cap the body is refused from its declared length, unread.
                let body = size <= cap ? [UInt8](repeating: UInt8(ascii: "x"), count: size) : []
                let declared = try await RawHTTP.exchange(
                    port: port, head: Self.head(route.method, route.path, host: host, extra: ["Content-Length: \(size)"]),
                    body: body)
                #expect(declared.status == 413, "\(route.method) \(route.path) with \(size) bytes: \(declared.status)")
                if declared.text.contains("application/problem+json"), size <= cap {
                    #expect(declared.text.contains("\(route.bodyLimit) bytes"), "the 413 names the limit: \(declared.text)")
                }
                guard size <= 1 << 20 else { continue }
                var chunked = Array(String(size, radix: 16).utf8) + Array("\r\n".utf8)
                chunked += [UInt8](repeating: UInt8(ascii: "x"), count: size) + Array("\r\n0\r\n\r\n".utf8)
                let streamed = try await RawHTTP.exchange(
                    port: port,
                    head: Self.head(route.method, route.path, host: host, extra: ["Transfer-Encoding: chunked"]),
                    body: chunked)
                #expect(streamed.status == 413, "\(route.method) \(route.path) chunked \(size) bytes: \(streamed.status)")
            }
        }
    }

    @Test("JSON and problem answers are never cached and never sniffed")
    func cacheHeaders() async throws {
        try await Self.withServer { fixture, port in
            for target in ["/health", "/v1/coverage", "/no/such/route"] {
                let answer = try await RawHTTP.exchange(port: port, head: Self.head(.get, target, host: "localhost"))
                let lower = answer.text.lowercased()
                #expect(lower.contains("cache-control: no-store"), "\(target): \(answer.text.prefix(300))")
                #expect(lower.contains("x-content-type-options: nosniff"), "\(target)")
            }
        }
    }

    @Test("a handler reached without its route's gate refuses to answer (fail closed)")
    func failClosed() async throws {
        let fixture = try await ServerFixture()
        let routes = Routes(server: fixture.server)
        let router = Router(context: ServerRequestContext.self)
        for endpoint in [Endpoint.coverage, .listRules, .health] {
            router.on(RouterPath(endpoint.path), method: endpoint.method) { request, context in
                try await routes.handle(endpoint, request, context)
            }
        }
        try await Application(router: router).test(.router) { client in
            for path in ["/v1/coverage", "/v1/rules", "/health"] {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .unauthorized, "\(path) without its gate: \(response.status)")
            }
        }
    }
}
