import AuditServer
import AuditService
import Foundation
import HummingbirdTesting
import Testing

/// A task shows what its product looks like: the latest stored photo of a passed inspection.
@Suite("A task's reference image")
struct ReferenceImageTests {
    @Test("after a passed inspection with a photo, the product's next task carries that photo as its reference")
    func photoOfPassedInspection() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let gtin = InspectorVisibilityTests.gtin
            let token = try await fixture.login(client, "inspector")
            let before = try ServerFixture.object(
                try await fixture.send(client, .get, "/v1/tasks?gtin=\(gtin)", token: token))
            #expect(before["total"] as? Int == 0)
            let sha = try await InspectorVisibilityTests.inspect(fixture, client, "inspector", tag: 9)
            let next = try await fixture.send(
                client, .post, "/v1/commands",
                json: ServerFixture.bundle([
                    #"{"commandID":"again","type":"AllocateAdHocTask","inspectorID":"inspector","locationID":"S1","gtin":"\#(gtin)"}"#
                ]),
                token: token)
            let outcome = try #require((try ServerFixture.object(next)["outcomes"] as? [[String: Any]])?.first)
            let taskID = try #require(outcome["createdID"] as? String, "\(outcome)")
            let listed = try ServerFixture.object(
                try await fixture.send(client, .get, "/v1/tasks?gtin=\(gtin)", token: token))
            let items = try #require(listed["items"] as? [[String: Any]], "\(listed)")
            #expect(listed["total"] as? Int == 2)
            // Open work first: the new task, carrying the finished inspection's photo.
            #expect(items.first?["taskID"] as? String == taskID)
            let reference = try #require(items.first?["referenceImage"] as? [String: Any], "\(items)")
            #expect(reference["sha256"] as? String == sha)
            #expect(reference["source"] as? String == "inspection")
        }
    }
}
