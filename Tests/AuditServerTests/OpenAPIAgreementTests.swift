import Foundation
import HummingbirdTesting
import Testing

@testable import AuditServer

/// The routes and `Schemas/openapi.yaml` describe the same API.
@Suite("OpenAPI agreement")
struct OpenAPIAgreementTests {
    static let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Schemas/openapi.yaml")

    /// (METHOD path) of every operation in the document: the two-space path keys under `paths:` and
    /// the four-space method keys under each.
    static func operations(_ yaml: String) -> Set<String> {
        var result = Set<String>()
        var inPaths = false
        var path: String?
        for line in yaml.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "paths:" {
                inPaths = true
                continue
            }
            guard inPaths else { continue }
            if !line.hasPrefix(" ") && !line.isEmpty { break }
            if line.hasPrefix("  /"), line.hasSuffix(":"), !line.hasPrefix("   ") {
                path = String(line.dropFirst(2).dropLast())
            } else if let path, line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":") {
                let method = line.trimmingCharacters(in: .whitespaces).dropLast()
                if ["get", "put", "post", "delete", "patch"].contains(String(method)) {
                    result.insert("\(method.uppercased()) \(path)")
                }
            }
        }
        return result
    }

    @Test("every endpoint is in the document and the document has no other operation")
    func routesMatchDocument() throws {
        let yaml = try String(contentsOf: Self.document, encoding: .utf8)
        let documented = Self.operations(yaml)
        let routed = Set(Endpoint.allCases.map { "\($0.method.rawValue) \($0.path)" })
        #expect(documented.count > 5)
        #expect(documented.subtracting(routed).isEmpty, "documented but not routed: \(documented.subtracting(routed))")
        #expect(routed.subtracting(documented).isEmpty, "routed but not documented: \(routed.subtracting(documented))")
    }

    @Test("operations without a session are exactly the ones the document marks security: [] or signature-only")
    func publicOperations() throws {
        let yaml = try String(contentsOf: Self.document, encoding: .utf8)
        for endpoint in Endpoint.allCases where endpoint.authentication == .none {
            let block = yaml.components(separatedBy: "\n  \(endpoint.path):\n").dropFirst().first ?? ""
            #expect(block.prefix(400).contains("security: []"), "\(endpoint.path) should say security: []")
        }
    }

    /// The browser routes are a second, explicitly listed group (`WebRoute`), kept out of the
    /// document on purpose: the document is the signed API's contract (schemathesis fuzzes it through
    /// a signing proxy), while pages are for browsers, authenticated by a cookie with a CSRF token.
    @Test("browser routes are listed apart: none is in the document, none shares a method and path with an endpoint")
    func browserRoutesApart() async throws {
        let yaml = try String(contentsOf: Self.document, encoding: .utf8)
        let documented = Self.operations(yaml)
        let web = Set(WebRoute.allCases.map { "\($0.method.rawValue) \($0.path)" })
        let api = Set(Endpoint.allCases.map { "\($0.method.rawValue) \($0.path)" })
        #expect(web.count == WebRoute.allCases.count, "each browser route is one method and path")
        #expect(web.isDisjoint(with: documented), "browser routes in the API document: \(web.intersection(documented))")
        #expect(web.isDisjoint(with: api))
        // The router holds each route once: no browser route shadows an endpoint or another route.
        let fixture = try await ServerFixture()
        let routed = buildRouter(fixture.server).routes.map(\.description)
        #expect(routed.count == WebRoute.allCases.count + Endpoint.allCases.count)
        #expect(Set(routed).count == routed.count, "a method and path routed twice: \(routed)")
    }

    @Test("the router answers every browser route (an unauthenticated request is redirected or refused, never 404)")
    func browserRoutesRouted() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            for route in WebRoute.allCases {
                let path = RouteExposureTests.concrete(route.path)
                let response = try await client.execute(uri: path, method: route.method)
                #expect(response.status != .notFound, "\(route.method) \(path)")
                #expect(response.status.code < 500, "\(route.method) \(path)")
                #expect(response.headers[.contentType] != Problem.mediaType, "\(path) answers a browser, not a device")
            }
        }
    }

    @Test("/openapi.yaml serves the document in Schemas/ byte for byte")
    func servedDocument() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: "/openapi.yaml", method: .get)
            #expect(String(buffer: response.body) == (try String(contentsOf: Self.document, encoding: .utf8)))
        }
    }
}
