import Foundation
import TestSupport
import Testing

@Suite("projection commands, end to end")
struct ProjectionCommandTests {
    static func scratch() throws -> URL {
        try makeScratchDirectory(prefix: "itemaudit-e2e")
    }

    static func sample(_ directory: URL, events: Int, seed: Int = 2) throws {
        let made = try ItemAuditBinary.run([
            "sample-history", "--data", directory.path, "--events", String(events), "--seed", String(seed),
            "--products", "150",
        ])
        #expect(made.status == 0, "\(made.stderr)")
    }

    @Test("reports print tables, CSV and JSON; unknown ids and bad usage exit 2 with one line")
    func reports() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.sample(directory, events: 3_000)
        let batch = try ItemAuditBinary.run(["batch", "B1", "--data", directory.path, "--format", "json"])
        #expect(batch.status == 0, "\(batch.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(batch.stdout.utf8)) as? [String: Any]
        #expect(object?["batchID"] as? String == "B1" && (object?["tasks"] as? [Any])?.isEmpty == false)
        let coverage = try ItemAuditBinary.run([
            "coverage", "--data", directory.path, "--by", "mode", "--format", "csv",
        ])
        #expect(coverage.status == 0 && coverage.stdout.hasPrefix("groupLabel,catalogue,inspected,percent,"))
        let inspectors = try ItemAuditBinary.run(["inspectors", "--data", directory.path, "--from", "2026-01-01"])
        #expect(inspectors.status == 0 && inspectors.stdout.contains("insp-1"))
        let search = try ItemAuditBinary.run(["search", "valio", "--data", directory.path, "--limit", "2"])
        #expect(search.status == 0 && search.stdout.contains("products match"))
        let history = try ItemAuditBinary.run([
            "history", "--task", "B1-1", "--data", directory.path, "--format", "csv",
        ])
        #expect(history.status == 0 && history.stdout.contains("BatchAllocated"))

        let unknown = try ItemAuditBinary.run(["batch", "B999999", "--data", directory.path])
        #expect(unknown.status == 2 && unknown.stderr.hasPrefix("error: no batch B999999"))
        let both = try ItemAuditBinary.run(["history", "--task", "B1-1", "--batch", "B1", "--data", directory.path])
        #expect(both.status == 2)
        let badTime = try ItemAuditBinary.run(["coverage", "--from", "yesterday", "--data", directory.path])
        #expect(badTime.status == 2 && badTime.stderr.contains("ISO 8601"))
        let noLog = try ItemAuditBinary.run(["coverage", "--data", directory.appendingPathComponent("none").path])
        #expect(noLog.status == 2 && noLog.stderr.hasPrefix("error: no event log"))
    }

    @Test("replay --until builds a separate database as of that position")
    func pointInTime() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.sample(directory, events: 2_000)
        // Outside the data directory: replay --out refuses any path inside one.
        let out = directory.deletingLastPathComponent().appendingPathComponent("then-\(UUID().uuidString).sqlite")
        defer {
            for suffix in ["", "-wal", "-shm", ".lock"] {
                try? FileManager.default.removeItem(atPath: out.path + suffix)
            }
        }
        let replay = try ItemAuditBinary.run([
            "replay", "--data", directory.path, "--until", "700", "--out", out.path, "--format", "csv",
        ])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.contains(",700,") && FileManager.default.fileExists(atPath: out.path))
        let asOf = try ItemAuditBinary.run([
            "history", "--inspector", "insp-1", "--as-of", "700", "--data", directory.path, "--format", "csv",
        ])
        let positions = asOf.stdout.split(separator: "\n").dropFirst().compactMap {
            Int($0.split(separator: ",").first ?? "")
        }
        #expect(!positions.isEmpty && positions.allSatisfy { $0 <= 700 })
        let wrong = try ItemAuditBinary.run(["replay", "--data", directory.path, "--projection", "nope"])
        #expect(wrong.status == 2 && wrong.stderr.contains("no projection named 'nope'"))
    }

    @Test("a rebuild killed with SIGKILL resumes to the same reports as a clean one")
    func killedRebuild() throws {
        let killed = try Self.scratch()
        let clean = try Self.scratch()
        defer {
            try? FileManager.default.removeItem(at: killed)
            try? FileManager.default.removeItem(at: clean)
        }
        try Self.sample(killed, events: 60_000, seed: 4)
        try FileManager.default.removeItem(at: clean)
        try FileManager.default.copyItem(at: killed, to: clean)
        let process = Process()
        process.executableURL = ItemAuditBinary.executable
        process.arguments = ["replay", "--data", killed.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: 0.4)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let commands = [
            ["coverage", "--by", "type", "--to", "2026-06-01"], ["coverage", "--by", "location", "--to", "2026-06-01"],
            ["inspectors"], ["batch", "B40"],
        ]
        for command in commands {
            let resumed = try ItemAuditBinary.run(command + ["--data", killed.path, "--format", "json"])
            let fresh = try ItemAuditBinary.run(command + ["--data", clean.path, "--format", "json"])
            #expect(resumed.status == 0 && fresh.status == 0, "\(resumed.stderr) \(fresh.stderr)")
            #expect(resumed.stdout == fresh.stdout, "\(command)")
        }
    }
}
