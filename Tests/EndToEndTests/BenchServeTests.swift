import Foundation
import Testing

/// `bench serve` end to end, briefly: its own HTTP client (which reads the server's answers itself)
/// must carry every device through the flow, and the report must hold every figure.
@Suite("bench serve")
struct BenchServeTests {
    @Test("two devices for a second: every request answered, every figure measured", .timeLimit(.minutes(2)))
    func briefRun() throws {
        let result = try ItemAuditBinary.run(["bench", "serve", "--devices", "2", "--seconds", "1", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("failed requests"), "\(result.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let results = report?["results"] as? [[String: Any]] ?? []
        let values = Dictionary(
            results.compactMap { item in (item["name"] as? String).map { ($0, item["value"] as? Double ?? 0) } },
            uniquingKeysWith: { first, _ in first })
        for name in ["commands", "p50-ms", "p99-ms", "reads", "pages", "memory", "cpu-per-command"] {
            #expect((values[name] ?? 0) > 0, "\(name) in \(result.stdout)")
        }
    }
}
