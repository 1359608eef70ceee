import Foundation
import Testing

/// Every report command reads as of a point in the log, or from a database replay built.
@Suite("reports as of a point, and from a replay --out database")
struct AsOfReportTests {
    @Test("--as-of POSITION equals --projections of replay --until POSITION, and differs from now")
    func asOfAgreesWithReplay() throws {
        let demo = try DemoFixture.demo()
        let scratch = try DemoFixture.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let data = demo.directory.path
        let database = scratch.appendingPathComponent("then.sqlite").path
        let replay = try ItemAuditBinary.run([
            "replay", "--data", data, "--until", "9000", "--out", database, "--quiet",
        ])
        try #require(replay.status == 0, "\(replay.stderr)")
        for report in [["coverage", "--by", "type"], ["inspectors", "--by", "day"], ["batches"], ["overdue"]] {
            let asOf = try ItemAuditBinary.run(report + ["--data", data, "--as-of", "9000", "--format", "json"])
            let read = try ItemAuditBinary.run(
                report + ["--data", data, "--projections", database, "--format", "json"])
            let now = try ItemAuditBinary.run(report + ["--data", data, "--format", "json"])
            #expect(asOf.status == 0 && read.status == 0, "\(report): \(asOf.stderr) \(read.stderr)")
            #expect(asOf.stdout == read.stdout, "\(report) --as-of 9000 differs from the replayed database")
            if report[0] != "overdue" { #expect(asOf.stdout != now.stdout, "\(report) as of 9000 equals now") }
        }
        // A batch allocated later is not there yet.
        let later = try ItemAuditBinary.run(["batch", "B22", "--data", data, "--as-of", "9000"])
        #expect(later.status == 2 && later.stderr.contains("no batch B22"))
        let missing = try ItemAuditBinary.run(["coverage", "--data", data, "--projections", "/nonexistent.sqlite"])
        #expect(missing.status == 2 && missing.stderr.contains("replay --until"), "\(missing.stderr)")
    }

    @Test("an --as-of report leaves nothing behind in the temporary folder")
    func asOfCleansUp() throws {
        let demo = try DemoFixture.demo()
        let temporary = try DemoFixture.scratch()
        defer { try? FileManager.default.removeItem(at: temporary) }
        let asOf = try ItemAuditBinary.run(
            ["coverage", "--data", demo.directory.path, "--as-of", "9000"], environment: ["TMPDIR": temporary.path])
        #expect(asOf.status == 0, "\(asOf.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary.path)
        #expect(left.isEmpty, "left behind: \(left)")
    }
}
