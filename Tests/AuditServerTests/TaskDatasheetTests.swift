import AuditServer
import AuditService
import Foundation
import HummingbirdTesting
import Testing

/// The datasheet a device shows during an inspection: verdicts so far, with what was measured and
/// noted, counted per group.
@Suite("A task's datasheet during an inspection")
struct TaskDatasheetTests {
    @Test("recorded verdicts show with their measured value and note, and are counted in their group")
    func verdictsShown() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let token = try await fixture.login(client, "inspector")
            let gtin = ServerFixture.gtin(3)
            let allocated = try await fixture.send(
                client, .post, "/v1/commands",
                json: ServerFixture.bundle([
                    #"{"commandID":"a","type":"AllocateAdHocTask","inspectorID":"inspector","locationID":"S1","gtin":"\#(gtin)"}"#
                ]),
                token: token)
            let outcome = try #require((try ServerFixture.object(allocated)["outcomes"] as? [[String: Any]])?.first)
            let taskID = try #require(outcome["createdID"] as? String, "\(outcome)")
            let paths = ServerFixture.attributes
            let recorded = try await fixture.send(
                client, .post, "/v1/commands",
                json: ServerFixture.bundle([
                    #"{"commandID":"s","type":"StartInspection","taskID":"\#(taskID)"}"#,
                    #"{"commandID":"v","type":"RecordVerdicts","taskID":"\#(taskID)","verdicts":[{"path":"\#(paths[0])","verdict":1},{"path":"\#(paths[1])","verdict":3,"measuredValue":"480 g","note":"short"}]}"#,
                ]),
                token: token)
            let outcomes = try #require(try ServerFixture.object(recorded)["outcomes"] as? [[String: Any]])
            #expect(outcomes.allSatisfy { $0["status"] as? String == "accepted" }, "\(outcomes)")
            let sheet = try ServerFixture.object(
                try await fixture.send(client, .get, "/v1/tasks/\(taskID)/datasheet", token: token))
            let attributes = try #require(sheet["attributes"] as? [[String: Any]], "\(sheet)")
            let byPath = Dictionary(
                attributes.map { ($0["path"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a })
            #expect(byPath[paths[0]]?["verdict"] as? Int == 1)
            #expect(byPath[paths[1]]?["verdict"] as? Int == 3)
            #expect(byPath[paths[1]]?["measuredValue"] as? String == "480 g")
            #expect(byPath[paths[1]]?["note"] as? String == "short")
            #expect(byPath[paths[2]]?["verdict"] == nil)
            #expect(attributes.allSatisfy { $0["value"] as? String == "v" })
            let groups = try #require(sheet["groups"] as? [[String: Any]])
            var total = ["passed": 0, "failure": 0, "open": 0]
            for group in groups {
                let counts = group["verdictCounts"] as? [String: Int] ?? [:]
                for key in total.keys { total[key, default: 0] += counts[key] ?? 0 }
            }
            #expect(total == ["passed": 1, "failure": 1, "open": 1])
        }
    }
}
