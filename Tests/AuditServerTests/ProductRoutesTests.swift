import AuditServer
import AuditService
import Foundation
import HummingbirdTesting
import Testing

/// `GET /v1/products/{gtin}`: quality history, packaging hierarchy and last inspection.
@Suite("Product with packaging")
struct ProductRoutesTests {
    @Test("a case shows the base unit it holds and the pallet that holds it; a base unit its case and pallet")
    func packagingHierarchy() async throws {
        let fixture = try await ServerFixture()
        let base = ServerFixture.gtin(0)
        let box = ServerFixture.gtin(10)
        let pallet = ServerFixture.gtin(11)
        try await fixture.application().test(.router) { client in
            let steward = try await fixture.login(client, "steward")
            let registered = try await fixture.send(
                client, .post, "/v1/commands",
                json: ServerFixture.bundle([
                    #"{"commandID":"case","type":"RegisterProduct","gtin":"\#(box)","name":"Case of 12","brand":"B","manufacturer":"M","productType":1,"category":"C","childGTIN":"\#(base)","childQuantity":12}"#,
                    #"{"commandID":"pallet","type":"RegisterProduct","gtin":"\#(pallet)","name":"Pallet","brand":"B","manufacturer":"M","productType":2,"category":"C","childGTIN":"\#(box)","childQuantity":40}"#,
                ]),
                token: steward)
            #expect(registered.status == .ok, "\(String(buffer: registered.body))")
            let position = try ServerFixture.object(registered)["position"] as? Int ?? 0
            let manager = try await fixture.login(client, "manager")

            let caseAnswer = try ServerFixture.object(
                try await fixture.send(client, .get, "/v1/products/\(box)?waitFor=\(position)", token: manager))
            let packaging = try #require(caseAnswer["packaging"] as? [String: Any], "\(caseAnswer)")
            let contains = try #require(packaging["contains"] as? [[String: Any]])
            #expect(contains.map { $0["gtin"] as? String } == [base])
            let containedIn = try #require(packaging["containedIn"] as? [[String: Any]])
            #expect(containedIn.map { $0["gtin"] as? String } == [pallet])
            #expect(containedIn.first?["childQuantity"] as? Int == 40)
            #expect((packaging["product"] as? [String: Any])?["childQuantity"] as? Int == 12)
            #expect(caseAnswer["gtin"] as? String == box, "the quality history's fields are still there")

            let baseAnswer = try ServerFixture.object(
                try await fixture.send(client, .get, "/v1/products/\(base)", token: manager))
            let basePackaging = try #require(baseAnswer["packaging"] as? [String: Any])
            #expect((basePackaging["contains"] as? [Any])?.isEmpty == true)
            #expect((basePackaging["containedIn"] as? [[String: Any]])?.map { $0["gtin"] as? String } == [box, pallet])
            #expect(baseAnswer["lastInspection"] == nil, "never inspected")

            let missing = try await fixture.send(client, .get, "/v1/products/\(ServerFixture.gtin(99))", token: manager)
            #expect(missing.status == .notFound)
        }
    }

    @Test("a mixed shipper's answer lists both children with their quantities; each child names it as its container")
    func mixedShipper() async throws {
        let fixture = try await ServerFixture()
        let first = ServerFixture.gtin(0)
        let second = ServerFixture.gtin(1)
        let shipper = ServerFixture.gtin(12)
        try await fixture.application().test(.router) { client in
            let steward = try await fixture.login(client, "steward")
            let registered = try await fixture.send(
                client, .post, "/v1/commands",
                json: ServerFixture.bundle([
                    #"{"commandID":"shipper","type":"RegisterProduct","gtin":"\#(shipper)","name":"Mixed shipper","brand":"B","manufacturer":"M","productType":2,"category":"C","children":[{"gtin":"\#(first)","quantity":6},{"gtin":"\#(second)","quantity":4}]}"#
                ]),
                token: steward)
            #expect(registered.status == .ok, "\(String(buffer: registered.body))")
            let position = try ServerFixture.object(registered)["position"] as? Int ?? 0
            let manager = try await fixture.login(client, "manager")
            let answer = try ServerFixture.object(
                try await fixture.send(client, .get, "/v1/products/\(shipper)?waitFor=\(position)", token: manager))
            let packaging = try #require(answer["packaging"] as? [String: Any], "\(answer)")
            let product = try #require(packaging["product"] as? [String: Any])
            let children = try #require(product["children"] as? [[String: Any]], "\(product)")
            #expect(children.map { $0["gtin"] as? String } == [first, second])
            #expect(children.map { $0["quantity"] as? Int } == [6, 4])
            #expect(product["childGTIN"] == nil, "a level holding several products names none alone")
            let contains = try #require(packaging["contains"] as? [[String: Any]])
            #expect(contains.map { $0["gtin"] as? String } == [first, second])
            var browser = WebBrowser(client)
            try await browser.loggedIn("manager")
            let page = String(buffer: try await browser.get("/product?gtin=\(shipper)").body)
            #expect(page.contains("6 × \(first), 4 × \(second)"), "the packaging table lists the children")
            for child in [first, second] {
                let childAnswer = try ServerFixture.object(
                    try await fixture.send(client, .get, "/v1/products/\(child)", token: manager))
                let childPackaging = try #require(childAnswer["packaging"] as? [String: Any])
                #expect((childPackaging["containedIn"] as? [[String: Any]])?.map { $0["gtin"] as? String } == [shipper])
            }
        }
    }

    @Test("after an inspection finishes, the product answer carries it as lastInspection")
    func lastInspection() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let token = try await fixture.login(client, "inspector")
            let allocate = try await fixture.send(
                client, .post, "/v1/commands",
                json: ServerFixture.bundle([
                    #"{"commandID":"a","type":"AllocateBatch","inspectorID":"inspector","locationID":"S1","mode":2,"quantity":1}"#
                ]),
                token: token)
            let outcome = try #require((try ServerFixture.object(allocate)["outcomes"] as? [[String: Any]])?.first)
            #expect(outcome["status"] as? String == "accepted", "\(outcome)")
            let batch = try ServerFixture.object(try await fixture.send(client, .get, "/v1/batches/B1", token: token))
            let task = try #require((batch["tasks"] as? [[String: Any]])?.first)
            let taskID = try #require(task["taskID"] as? String)
            let gtin = try #require(task["gtin"] as? String)
            let verdicts = ServerFixture.attributes.map { #"{"path":"\#($0)","verdict":1}"# }.joined(separator: ",")
            let work = try await fixture.send(
                client, .post, "/v1/commands",
                json: ServerFixture.bundle([
                    #"{"commandID":"sc","type":"StartCollection","batchID":"B1"}"#,
                    #"{"commandID":"c","type":"CollectProduct","batchID":"B1","scanned":"\#(gtin)"}"#,
                    #"{"commandID":"fc","type":"FinishCollection","batchID":"B1"}"#,
                    #"{"commandID":"s","type":"StartInspection","taskID":"\#(taskID)"}"#,
                    #"{"commandID":"v","type":"RecordVerdicts","taskID":"\#(taskID)","verdicts":[\#(verdicts)]}"#,
                    #"{"commandID":"f","type":"FinishInspection","taskID":"\#(taskID)"}"#,
                ]),
                token: token)
            let outcomes = try #require(try ServerFixture.object(work)["outcomes"] as? [[String: Any]])
            #expect(outcomes.allSatisfy { $0["status"] as? String == "accepted" }, "\(outcomes)")
            let answer = try ServerFixture.object(
                try await fixture.send(client, .get, "/v1/products/\(gtin)", token: token))
            let last = try #require(answer["lastInspection"] as? [String: Any], "\(answer)")
            #expect(last["taskID"] as? String == taskID)
            #expect(last["resultLabel"] as? String == "passed")
        }
    }
}
