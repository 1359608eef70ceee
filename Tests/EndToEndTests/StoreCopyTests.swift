import Foundation
import Testing

/// `itemaudit store copy`, as a user runs it.
@Suite("store copy, end to end")
struct StoreCopyTests {
    @Test("the demo log copied to a new data directory: verify prints the same head; the copy reads the same")
    func copyKeepsTheHead() throws {
        let demo = try DemoFixture.demo()
        let scratch = try DemoFixture.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let target = scratch.appendingPathComponent("copy")
        let before = DemoFixture.listing(demo.directory)
        let copied = try ItemAuditBinary.run([
            "store", "copy", "--from", demo.directory.path, "--to", target.path, "--format", "json",
        ])
        #expect(copied.status == 0, "\(copied.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(copied.stdout.utf8)) as? [String: Any]
        let head = try DemoFixture.headHash(demo.directory)
        #expect(report?["headHash"] as? String == head)
        #expect(try DemoFixture.headHash(target) == head)
        #expect(DemoFixture.listing(demo.directory) == before, "the source is not changed")
        // Positions, times, actors and command ids are the same: the same timeline reads back.
        let history = ["history", "--batch", "B1", "--format", "json"]
        let original = try ItemAuditBinary.run(history + ["--data", demo.directory.path])
        let copy = try ItemAuditBinary.run(history + ["--data", target.path])
        #expect(original.status == 0 && copy.stdout == original.stdout)

        // A second copy onto the copy is refused: it holds events (exit 2, one line).
        let again = try ItemAuditBinary.run(["store", "copy", "--from", demo.directory.path, "--to", target.path])
        #expect(again.status == 2)
        #expect(again.stderr.hasPrefix("error: ") && again.stderr.contains("already holds an event log"))
        #expect(try DemoFixture.headHash(target) == head)
    }

    @Test("a missing source is bad input (exit 2), and nothing is created")
    func missingSource() throws {
        let scratch = try DemoFixture.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let result = try ItemAuditBinary.run([
            "store", "copy", "--from", scratch.appendingPathComponent("none").path, "--to",
            scratch.appendingPathComponent("to").path,
        ])
        #expect(result.status == 2 && result.stderr.contains("no event log"))
        #expect(!FileManager.default.fileExists(atPath: scratch.appendingPathComponent("to").path))
    }
}

/// A data directory whose log was written before format 3, as a user upgrading meets it.
@Suite("format-2 log, end to end")
struct FormatTwoLogTests {
    @Test("verify prints both heads; the first write continues the log; verify stays clean and the old head stays")
    func upgradeByWriting() throws {
        let scratch = try DemoFixture.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("AuditLogTests/Fixtures")
        let data = scratch.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("format2-log"), to: data.appendingPathComponent("log"))
        let printed =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: fixtures.appendingPathComponent("format2-log.verify.json"))) as? [String: Any]
        let oldHead = try #require(printed?["headHash"] as? String)

        let verify = try ItemAuditBinary.run(["verify", "--data", data.path, "--format", "json"])
        #expect(verify.status == 0, "\(verify.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(verify.stdout.utf8)) as? [String: Any]
        #expect(report?["formatTwoFrameHash"] as? String == oldHead)
        let canonical = try #require(report?["headHash"] as? String)
        #expect(canonical != oldHead)

        let command =
            #"{"commandID":"after-upgrade-1","actor":"admin","type":"RegisterLocation","locationID":"S900","name":"New","kind":0}"#
        let record = try ItemAuditBinary.run(["record", "-", "--data", data.path], stdin: Data(command.utf8))
        #expect(record.status == 0, "\(record.stderr)")
        let table = try ItemAuditBinary.run(["verify", "--data", data.path])
        #expect(table.status == 0)
        #expect(table.stdout.contains("format-2 frame hash  \(oldHead)"))
        #expect(table.stdout.contains("segments       2") || table.stdout.contains("segments             2"))
        #expect(try DemoFixture.headHash(data) != canonical, "the new event extends the canonical chain")
    }
}
