import Foundation
import TestSupport
import Testing

@Suite("record and generate, end to end")
struct RecordGenerateTests {
    static func scratch() throws -> URL {
        try makeScratchDirectory(prefix: "itemaudit-e2e")
    }

    static let lines = [
        #"{"commandID":"c1","actor":"admin","type":"RegisterLocation","locationID":"S1","name":"Store","kind":0}"#,
        #"{"commandID":"c2","actor":"admin","type":"RegisterInspector","inspectorID":"i1","name":"Ann","role":0}"#,
        #"{"commandID":"c3","actor":"i1","type":"SubmitBatch","batchID":"B1"}"#,
        #"{"commandID":"c4","actor":"admin","type":"RegisterLocation","locationID":"S2"}"#,
        #"{"commandID":"c1","actor":"admin","type":"RegisterLocation","locationID":"S1","name":"Store","kind":0}"#,
    ]

    @Test("record prints one outcome per line, keeps going after a refusal, exits 1")
    func record() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = Data((Self.lines.joined(separator: "\n") + "\n").utf8)
        let result = try ItemAuditBinary.run(["record", "-", "--data", directory.path], stdin: input)
        #expect(result.status == 1, "\(result.stderr)")
        let output = result.stdout.split(separator: "\n").map(String.init)
        #expect(output.count == 5, "\(output)")
        #expect(output[0].hasPrefix("line 1: accepted RegisterLocation c1 -> location-S1 v1"))
        #expect(output[2].contains("refused c3: SubmitBatch refused: no batch B1"))
        #expect(output[3].contains("invalid: missing field 'name'"))
        #expect(output[4].hasPrefix("line 5: duplicate RegisterLocation c1 -> location-S1 v1"))
        #expect(result.stderr.contains("2 of 5 lines were refused or invalid"))
        // JSON output, against the same log: every line is now a repeat or still refused.
        let again = try ItemAuditBinary.run(
            ["record", "-", "--data", directory.path, "--format", "json"], stdin: input)
        let objects = again.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(
            objects.map { $0["status"] as? String } == ["duplicate", "duplicate", "refused", "invalid", "duplicate"])
    }

    @Test("record exits 2 on an unreadable file, 0 when all lines are accepted")
    func exitCodes() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = try ItemAuditBinary.run([
            "record", directory.appendingPathComponent("nope.jsonl").path, "--data", directory.path,
        ])
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("error: cannot read"))
        let file = directory.appendingPathComponent("ok.jsonl")
        try Data((Self.lines.prefix(2).joined(separator: "\n")).utf8).write(to: file)
        let ok = try ItemAuditBinary.run(["record", file.path, "--data", directory.appendingPathComponent("data").path])
        #expect(ok.status == 0, "\(ok.stderr)")
    }

    @Test("generate writes a log that verify accepts, and refuses a directory that has one")
    func generate() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let arguments = [
            "generate", "--data", directory.path, "--products", "120", "--days", "3", "--inspectors", "2", "--format",
            "json",
        ]
        let result = try ItemAuditBinary.run(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect((report?["events"] as? Double ?? 0) > 1000)
        #expect(report?["refused"] as? Double == 0)
        let verify = try ItemAuditBinary.run(["verify", "--data", directory.path])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        let again = try ItemAuditBinary.run(arguments)
        #expect(again.status == 2)
        #expect(again.stderr.contains("already holds a log"))
    }
}

/// Ctrl-C during generate: one line saying how far it got, exit 130, and --replace starts again.
@Suite("generate interrupted")
struct GenerateInterruptTests {
    @Test("SIGINT says what happened; a re-run is refused without --replace and runs with it")
    func interrupted() throws {
        let scratch = try DemoFixture.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let data = scratch.appendingPathComponent("data")
        let (status, stderr) = try Self.interrupt(
            ["generate", "--data", data.path, "--days", "400", "--products", "300", "--quiet"], data: data, after: 2)
        #expect(status == 130, "\(stderr)")
        #expect(
            stderr.contains("generate: interrupted after") && stderr.contains("--resume")
                && stderr.contains("--replace"), "\(stderr)")

        let again = try ItemAuditBinary.run([
            "generate", "--data", data.path, "--days", "3", "--products", "30", "--quiet",
        ])
        #expect(again.status == 2 && again.stderr.contains("--replace"), "\(again.stderr)")
        let replaced = try ItemAuditBinary.run([
            "generate", "--data", data.path, "--days", "3", "--products", "30", "--quiet", "--replace",
        ])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(try ItemAuditBinary.run(["verify", "--data", data.path]).status == 0)

        // A directory generate did not write is never emptied.
        let other = scratch.appendingPathComponent("other/log")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try Data().write(to: other.appendingPathComponent("segment-000001.log"))
        let refused = try ItemAuditBinary.run([
            "generate", "--data", other.deletingLastPathComponent().path, "--replace", "--days", "1", "--quiet",
        ])
        #expect(refused.status == 2 && FileManager.default.fileExists(atPath: other.path))
    }

    /// Starts `generate` with `arguments`, interrupts it `after` seconds once its log holds
    /// events, and returns its exit status and stderr.
    static func interrupt(
        _ arguments: [String], data: URL, after: TimeInterval = 1
    ) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = ItemAuditBinary.executable
        process.arguments = arguments
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: data.appendingPathComponent("log").path), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        Thread.sleep(forTimeInterval: after)
        process.interrupt()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, stderr)
    }

    @Test("SIGINT, then --resume: the history and report of one uninterrupted run")
    func resumed() throws {
        let scratch = try DemoFixture.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let whole = scratch.appendingPathComponent("whole")
        let cut = scratch.appendingPathComponent("cut")
        let options = ["--seed", "4", "--days", "30", "--products", "300", "--inspectors", "4", "--quiet"]
        let uninterrupted = try ItemAuditBinary.run(["generate", "--data", whole.path, "--format", "json"] + options)
        #expect(uninterrupted.status == 0, "\(uninterrupted.stderr)")

        let stopped = try Self.interrupt(["generate", "--data", cut.path] + options, data: cut)
        #expect(stopped.status == 130, "generate finished before it was interrupted: \(stopped.stderr)")
        #expect(stopped.stderr.contains("--resume"), "\(stopped.stderr)")
        // Another seed is not this run: refused, naming the options to use, nothing added.
        let wrong = try ItemAuditBinary.run(
            ["generate", "--data", cut.path, "--resume", "--seed", "5", "--days", "30", "--products", "300"])
        #expect(wrong.status == 2 && wrong.stderr.contains("--seed 4"), "\(wrong.stderr)")

        let resumed = try ItemAuditBinary.run(
            ["generate", "--data", cut.path, "--format", "json", "--resume"] + options)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stdout == uninterrupted.stdout, "the report counts the whole run")
        for report in [["batches"], ["coverage", "--by", "type"], ["inspectors"]] {
            let a = try ItemAuditBinary.run(report + ["--data", whole.path, "--format", "json"])
            let b = try ItemAuditBinary.run(report + ["--data", cut.path, "--format", "json"])
            #expect(a.status == 0 && a.stdout == b.stdout, "\(report) differs after the resume")
        }
        let verify = try ItemAuditBinary.run(["verify", "--data", cut.path, "--format", "json"])
        #expect(verify.status == 0, "\(verify.stderr)")
        // Resumed again, a complete log gets nothing more.
        let again = try ItemAuditBinary.run(["generate", "--data", cut.path, "--format", "json", "--resume"] + options)
        #expect(again.status == 0 && again.stdout == uninterrupted.stdout, "\(again.stderr)")
    }
}
