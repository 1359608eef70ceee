import Foundation
import Testing

@Suite("itemaudit gs1 parse")
struct GS1CommandTests {
    @Test("valid inputs exit 0 with one JSON object each")
    func valid() throws {
        let result = try ItemAuditBinary.run([
            "gs1", "parse", "--format", "json", "(01)09506000134352(17)201225(10)ABC123", "6414893400016",
        ])
        #expect(result.status == 0)
        let objects = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
        #expect(objects?.count == 2)
        #expect(objects?.first?["gtin"] as? String == "09506000134352")
        #expect(objects?.first?["kind"] as? String == "element-string")
    }

    @Test("an invalid input from stdin exits 1 and names the AI")
    func invalid() throws {
        let result = try ItemAuditBinary.run(
            ["gs1", "parse", "-", "--format", "json"], stdin: Data("(01)09506000134352(17)210230\n".utf8))
        #expect(result.status == 1)
        #expect(result.stdout.contains("AI (17): day 30 does not exist in February 2021"))
    }
}
