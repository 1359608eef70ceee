import AuditServer
import Foundation
import HummingbirdTesting
import Testing

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

    @Test("/openapi.yaml serves the document in Schemas/ byte for byte")
    func servedDocument() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: "/openapi.yaml", method: .get)
            #expect(String(buffer: response.body) == (try String(contentsOf: Self.document, encoding: .utf8)))
        }
    }
}
