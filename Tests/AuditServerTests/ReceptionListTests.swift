import AuditServer
import AuditService
import Foundation
import HummingbirdTesting
import Testing

/// `GET /v1/receptions`: the receiver's receptions, newest first, paged, with the words for their codes.
@Suite("Receptions list")
struct ReceptionListTests {
    @Test("a receiver lists their own receptions, paged; a manager lists everyone's; naming another receiver is 403")
    func ownReceptionsPaged() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let admin = try await fixture.login(client, "admin")
            let centre = #"{"commandID":"c","type":"RegisterLocation","locationID":"C1","name":"Centre","kind":2}"#
            #expect(
                try await fixture.send(
                    client, .post, "/v1/commands", json: ServerFixture.bundle([centre]), token: admin
                ).status == .ok)
            let receiver = try await fixture.login(client, "receiver")
            func receive(_ index: Int, _ token: String, extra: String = "") -> String {
                #"{"commandID":"r\#(index)","type":"ReceiveProduct","receptionID":"RC-\#(index)","gtin":"\#(ServerFixture.gtin(index))","locationID":"C1","storageLocation":"SHELF-\#(index)"\#(extra)}"#
            }
            let own = [
                receive(0, receiver, extra: #","condition":1"#), receive(1, receiver),
                receive(2, receiver, extra: #","priority":1,"inspectBefore":"2026-07-01T00:00:00Z""#),
            ]
            #expect(
                try await fixture.send(client, .post, "/v1/commands", json: ServerFixture.bundle(own), token: receiver)
                    .status == .ok)
            let other = try await fixture.send(
                client, .post, "/v1/commands", json: ServerFixture.bundle([receive(3, admin)]), token: admin)
            #expect(other.status == .ok)

            let page = try await fixture.send(
                client, .get, "/v1/receptions?limit=2&waitFor=\(fixture.service.log.lastPosition)", token: receiver)
            #expect(page.status == .ok)
            let body = try ServerFixture.object(page)
            #expect(body["total"] as? Int == 3 && body["limit"] as? Int == 2 && body["offset"] as? Int == 0)
            let items = try #require(body["items"] as? [[String: Any]])
            #expect(items.map { $0["receptionID"] as? String } == ["RC-2", "RC-1"])
            #expect(items.first?["priorityLabel"] as? String == "high")
            #expect(items.first?["inspectBefore"] as? String == "2026-07-01T00:00:00Z")
            #expect(items.first?["storageLocation"] as? String == "SHELF-2")
            #expect(items.first?["productName"] as? String == "P2")
            let rest = try ServerFixture.object(
                try await fixture.send(client, .get, "/v1/receptions?limit=2&offset=2", token: receiver))
            let last = try #require((rest["items"] as? [[String: Any]])?.first)
            #expect(last["receptionID"] as? String == "RC-0")
            #expect(last["conditionLabel"] as? String == "damaged" && last["replacementRequested"] as? Bool == true)
            #expect(last["decommissionLabel"] as? String == "donate")

            let forbidden = try await fixture.send(client, .get, "/v1/receptions?receiver=admin", token: receiver)
            #expect(forbidden.status == .forbidden)
            let manager = try await fixture.login(client, "manager")
            let all = try ServerFixture.object(try await fixture.send(client, .get, "/v1/receptions", token: manager))
            #expect(all["total"] as? Int == 4)
            let adminOnly = try ServerFixture.object(
                try await fixture.send(client, .get, "/v1/receptions?receiver=admin", token: manager))
            #expect((adminOnly["items"] as? [[String: Any]])?.map { $0["receptionID"] as? String } == ["RC-3"])
            let bad = try await fixture.send(client, .get, "/v1/receptions?limit=0", token: manager)
            #expect(bad.status == .badRequest)
        }
    }
}
