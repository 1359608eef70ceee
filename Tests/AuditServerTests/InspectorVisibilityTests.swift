import AuditServer
import AuditService
import Foundation
import HummingbirdTesting
import NIOCore
import Testing

/// An inspector sees a product's inspection results, but of other inspectors' work not who did
/// it, in which batch or task, nor their photos; a manager sees everything.
@Suite("What an inspector sees of colleagues' work")
struct InspectorVisibilityTests {
    static let gtin = ServerFixture.gtin(2)

    /// An ad-hoc inspection of ``gtin`` by `username`, with one uploaded photo tagged `tag`;
    /// returns the photo's hash.
    static func inspect(
        _ fixture: ServerFixture, _ client: some TestClientProtocol, _ username: String, tag: UInt8
    ) async throws -> String {
        let token = try await fixture.login(client, username)
        let allocated = try await fixture.send(
            client, .post, "/v1/commands",
            json: ServerFixture.bundle([
                #"{"commandID":"\#(username)-a","type":"AllocateAdHocTask","inspectorID":"\#(username)","locationID":"S1","gtin":"\#(gtin)"}"#
            ]),
            token: token)
        let outcome = try #require((try ServerFixture.object(allocated)["outcomes"] as? [[String: Any]])?.first)
        let taskID = try #require(outcome["createdID"] as? String, "\(outcome)")
        let photo = CommandsTests.png(tag)
        let sha = RequestSigning.bodyHash(photo)
        let uri = "/v1/photos/\(sha)"
        let stored = try await client.execute(
            uri: uri, method: .put, headers: fixture.headers(.put, uri, body: photo, token: token, contentType: "image/png"),
            body: ByteBuffer(bytes: photo))
        #expect(stored.status == .created)
        let verdicts = ServerFixture.attributes.map { #"{"path":"\#($0)","verdict":1}"# }.joined(separator: ",")
        let work = try await fixture.send(
            client, .post, "/v1/commands",
            json: ServerFixture.bundle([
                #"{"commandID":"\#(username)-s","type":"StartInspection","taskID":"\#(taskID)"}"#,
                #"{"commandID":"\#(username)-v","type":"RecordVerdicts","taskID":"\#(taskID)","verdicts":[\#(verdicts)]}"#,
                #"{"commandID":"\#(username)-p","type":"AttachPhoto","taskID":"\#(taskID)","sha256":"\#(sha)","byteCount":\#(photo.count),"contentType":"image/png"}"#,
                #"{"commandID":"\#(username)-f","type":"FinishInspection","taskID":"\#(taskID)"}"#,
            ]),
            token: token)
        let outcomes = try #require(try ServerFixture.object(work)["outcomes"] as? [[String: Any]])
        #expect(outcomes.allSatisfy { $0["status"] as? String == "accepted" }, "\(outcomes)")
        return sha
    }

    @Test("the API's product answer: results of every inspection, colleagues' names, batches and tasks withheld")
    func productAnswer() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            _ = try await Self.inspect(fixture, client, "inspector", tag: 1)
            _ = try await Self.inspect(fixture, client, "inspector2", tag: 2)
            let position = fixture.service.log.lastPosition
            let inspector = try await fixture.login(client, "inspector")
            let seen = try ServerFixture.object(
                try await fixture.send(client, .get, "/v1/products/\(Self.gtin)?waitFor=\(position)", token: inspector))
            let inspections = try #require(seen["inspections"] as? [[String: Any]], "\(seen)")
            #expect(inspections.count == 2, "both results are visible")
            #expect(Set(inspections.compactMap { $0["inspectorID"] as? String }) == ["inspector", "another inspector"])
            let colleague = try #require(inspections.first { $0["inspectorID"] as? String == "another inspector" })
            #expect(colleague["taskID"] as? String == "")
            #expect(!String(describing: seen).contains("inspector2"), "the colleague's name appears nowhere")
            let manager = try await fixture.login(client, "manager")
            let full = try ServerFixture.object(
                try await fixture.send(client, .get, "/v1/products/\(Self.gtin)", token: manager))
            #expect(
                Set((full["inspections"] as? [[String: Any]] ?? []).compactMap { $0["inspectorID"] as? String })
                    == ["inspector", "inspector2"])
        }
    }

    @Test("the product page and the photo route: an inspector gets their own photos only, a manager all")
    func pageAndPhotos() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let own = try await Self.inspect(fixture, client, "inspector", tag: 1)
            let colleagues = try await Self.inspect(fixture, client, "inspector2", tag: 2)
            let position = fixture.service.log.lastPosition
            while await fixture.service.appliedPosition < position { try await Task.sleep(for: .milliseconds(5)) }
            var inspector = WebBrowser(client)
            try await inspector.loggedIn("inspector")
            let page = String(buffer: try await inspector.get("/product?gtin=\(Self.gtin)").body)
            #expect(page.contains(own))
            #expect(!page.contains(colleagues), "a colleague's photo is not listed")
            #expect(!page.contains("inspector2"), "nor their name")
            #expect(page.contains("another inspector"))
            #expect(try await inspector.get("/photos/\(own)").status == .ok)
            #expect(try await inspector.get("/photos/\(colleagues)").status == .notFound)
            var manager = WebBrowser(client)
            try await manager.loggedIn("manager")
            let full = String(buffer: try await manager.get("/product?gtin=\(Self.gtin)").body)
            #expect(full.contains(colleagues) && full.contains("inspector2"))
            #expect(try await manager.get("/photos/\(colleagues)").status == .ok)
        }
    }

    @Test("the photo route: a batch task's photo is its inspector's, not a colleague's; one not stored is not found")
    func batchPhoto() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let token = try await fixture.login(client, "inspector")
            _ = try await fixture.send(
                client, .post, "/v1/commands",
                json: ServerFixture.bundle([
                    #"{"commandID":"a","type":"AllocateBatch","inspectorID":"inspector","locationID":"S1","mode":2,"quantity":1}"#
                ]),
                token: token)
            let batch = try ServerFixture.object(try await fixture.send(client, .get, "/v1/batches/B1", token: token))
            let task = try #require((batch["tasks"] as? [[String: Any]])?.first, "\(batch)")
            let taskID = try #require(task["taskID"] as? String)
            let gtin = try #require(task["gtin"] as? String)
            let photo = CommandsTests.png(7)
            let sha = RequestSigning.bodyHash(photo)
            let uri = "/v1/photos/\(sha)"
            let stored = try await client.execute(
                uri: uri, method: .put,
                headers: fixture.headers(.put, uri, body: photo, token: token, contentType: "image/png"),
                body: ByteBuffer(bytes: photo))
            #expect(stored.status == .created)
            let work = try await fixture.send(
                client, .post, "/v1/commands",
                json: ServerFixture.bundle([
                    #"{"commandID":"sc","type":"StartCollection","batchID":"B1"}"#,
                    #"{"commandID":"c","type":"CollectProduct","batchID":"B1","scanned":"\#(gtin)"}"#,
                    #"{"commandID":"fc","type":"FinishCollection","batchID":"B1"}"#,
                    #"{"commandID":"s","type":"StartInspection","taskID":"\#(taskID)"}"#,
                    #"{"commandID":"p","type":"AttachPhoto","taskID":"\#(taskID)","sha256":"\#(sha)","byteCount":\#(photo.count),"contentType":"image/png"}"#,
                ]),
                token: token)
            let outcomes = try #require(try ServerFixture.object(work)["outcomes"] as? [[String: Any]])
            #expect(outcomes.allSatisfy { $0["status"] as? String == "accepted" }, "\(outcomes)")

            var inspector = WebBrowser(client)
            try await inspector.loggedIn("inspector")
            #expect(try await inspector.get("/photos/\(sha)").status == .ok)
            let unstored = RequestSigning.bodyHash(CommandsTests.png(8))
            #expect(try await inspector.get("/photos/\(unstored)").status == .notFound)
            var colleague = WebBrowser(client)
            try await colleague.loggedIn("inspector2")
            #expect(try await colleague.get("/photos/\(sha)").status == .notFound)
            var manager = WebBrowser(client)
            try await manager.loggedIn("manager")
            #expect(try await manager.get("/photos/\(sha)").status == .ok)
        }
    }
}
