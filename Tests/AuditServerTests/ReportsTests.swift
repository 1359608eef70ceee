import AuditServer
import AuditService
import Foundation
import HummingbirdTesting
import Inspection
import Testing

/// Office, steward and auditor reads through the AuditService façade.
@Suite("Reports")
struct ReportsTests {
    func object(_ fixture: ServerFixture, _ client: some TestClientProtocol, _ uri: String, token: String)
        async throws -> (status: Int, json: [String: Any])
    {
        let response = try await fixture.send(client, .get, uri, token: token)
        return (response.status.code, try ServerFixture.object(response))
    }

    @Test("coverage and product history see a write acknowledged just before (read your writes)")
    func readYourWrites() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let inspector = try await fixture.login(client, "inspector")
            let written = try await fixture.send(
                client, .post, "/v1/commands",
                json: ServerFixture.bundle([CommandsTests.allocate("r1", quantity: 1)]), token: inspector)
            let position = try #require(try ServerFixture.object(written)["position"] as? Int)
            let manager = try await fixture.login(client, "manager")
            let coverage = try await object(fixture, client, "/v1/coverage?by=type&waitFor=\(position)", token: manager)
            #expect(coverage.status == 200)
            #expect((coverage.json["rows"] as? [[String: Any]])?.isEmpty == false)
            let history = try await object(fixture, client, "/v1/history?batch=B1", token: manager)
            #expect((history.json["entries"] as? [[String: Any]])?.count == 1)
            // As of a position before the allocation, the batch had no history.
            let before = try await object(fixture, client, "/v1/history?batch=B1&asOf=\(position - 1)", token: manager)
            #expect((before.json["entries"] as? [[String: Any]])?.isEmpty == true)
            let product = try await object(fixture, client, "/v1/products/\(ServerFixture.gtin(0))", token: inspector)
            #expect(product.status == 200)
            let search = try await object(fixture, client, "/v1/products?q=P1", token: inspector)
            #expect(search.status == 200)
        }
    }

    @Test("a cached coverage answer is never served once the log has moved past it")
    func coverageCacheFollowsTheLog() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let manager = try await fixture.login(client, "manager")
            let before = try await fixture.send(client, .get, "/v1/coverage?by=type", token: manager)
            let again = try await fixture.send(client, .get, "/v1/coverage?by=type", token: manager)
            #expect(before.status == .ok)
            #expect(String(buffer: again.body) == String(buffer: before.body))
            #expect(String(buffer: before.body).contains(#""catalogue":6"#))
            // A seventh product: the next answer must count it.
            let gtin = ServerFixture.gtin(6)
            _ = try await fixture.service.execute(
                CommandEnvelope(
                    commandID: "cache-p7", actor: "admin",
                    command: .registerProduct(
                        RegisterProduct(
                            gtin: gtin, name: "P7", brand: "B", manufacturer: "M", productType: .base, category: "C",
                            listings: [ProductListing(locationID: ServerFixture.location, aisle: "A7")]))))
            let after = try await fixture.send(client, .get, "/v1/coverage?by=type", token: manager)
            #expect(after.status == .ok)
            #expect(String(buffer: after.body).contains(#""catalogue":7"#), "\(String(buffer: after.body))")
        }
    }

    @Test("bad queries are 400 problems; a position the log never reaches is a 409 after the wait")
    func badQueries() async throws {
        let fixture = try await ServerFixture { ServerConfiguration(maxWait: .milliseconds(50), clock: $0) }
        try await fixture.application().test(.router) { client in
            let token = try await fixture.login(client, "auditor")
            for uri in [
                "/v1/coverage?by=colour", "/v1/coverage?from=yesterday", "/v1/history", "/v1/history?gtin=1&batch=2",
                "/v1/history?batch=B1&asOf=soon", "/v1/history?batch=B1&asOf=999999", "/v1/products?limit=0",
            ] {
                let response = try await fixture.send(client, .get, uri, token: token)
                #expect(response.status == .badRequest, "\(uri): \(String(buffer: response.body))")
            }
            let far = try await fixture.send(client, .get, "/v1/coverage?waitFor=999999", token: token)
            #expect(far.status == .conflict)
            #expect(try ServerFixture.object(far)["code"] as? String == "position-not-reached")
            let missing = try await fixture.send(client, .get, "/v1/products/00000000000000", token: token)
            #expect(missing.status == .notFound)
        }
    }

    @Test("verify answers the head hash of an intact log")
    func verify() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let token = try await fixture.login(client, "auditor")
            let report = try await object(fixture, client, "/v1/verify", token: token)
            #expect(report.status == 200)
            #expect((report.json["headHash"] as? String)?.count == 64, "\(report.json)")
        }
    }
}
