import AuditLog
import Foundation
import Logging
import Proofs
import TestSupport
import Testing

/// Signed checkpoints with the built binary: an auditor keeps one, and `verify --checkpoint`
/// later catches a changed event, a rollback and a fork, naming what differs (#44).
@Suite("checkpoints and tampering, end to end")
struct CheckpointTamperingTests {
    static let logger = Logger(label: "itemaudit.test.tamper") { _ in SwiftLogNoOpLogHandler() }
    static let origin = "audit.example.com/log"

    /// Records `count` RegisterLocation commands named `prefix-N` (one event each).
    static func record(_ data: URL, _ prefix: String, _ range: Range<Int>) throws {
        let lines = range.map {
            #"{"commandID":"\#(prefix)-\#($0)","actor":"admin","type":"RegisterLocation","locationID":"S\#(prefix)\#($0)","name":"Store \#($0)","kind":0}"#
        }
        let result = try ItemAuditBinary.run(
            ["record", "-", "--data", data.path, "--quiet"], stdin: Data((lines.joined(separator: "\n") + "\n").utf8))
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// `proof checkpoint`: the signed note it printed.
    static func checkpoint(_ data: URL) throws -> String {
        let result = try ItemAuditBinary.run(["proof", "checkpoint", "--data", data.path, "--log-origin", origin])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    static func verify(_ data: URL, checkpoint: URL) throws -> ItemAuditBinary.Result {
        try ItemAuditBinary.run(["verify", "--data", data.path, "--checkpoint", checkpoint.path])
    }

    /// Rewrites the log of `data` the way an attacker with write access would: the records
    /// `transform` returns, with a valid chain and CRCs (a plain `verify` passes).
    static func rewriteLog(_ data: URL, _ transform: ([EventRecord]) -> [EventRecord]) async throws {
        let logURL = data.appendingPathComponent("log")
        let reader = try EventLog.open(directory: logURL, configuration: .init(readOnly: true), logger: logger)
        let records = transform(try reader.readRecords())
        try reader.close()
        let fresh = data.appendingPathComponent("log.rewritten")
        let writer = try EventLog.open(directory: fresh, logger: logger)
        try await writer.appendCopies(records)
        try writer.close()
        try FileManager.default.removeItem(at: logURL)
        try FileManager.default.moveItem(at: fresh, to: logURL)
        try? FileManager.default.removeItem(at: data.appendingPathComponent("projections.sqlite"))
    }

    @Test("a kept checkpoint stays consistent as the log grows; the key and proofs verify; readers make nothing")
    func consistentGrowth() throws {
        let scratch = try DemoFixture.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let data = scratch.appendingPathComponent("data")
        try Self.record(data, "a", 0..<4)
        // Read-only commands make no key and no checkpoint.
        let noKey = try ItemAuditBinary.run(["proof", "key", "--data", data.path])
        #expect(noKey.status == 2 && noKey.stderr.contains("no log key"))
        #expect(try ItemAuditBinary.run(["verify", "--data", data.path]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent("keys/log.key").path))
        #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent("checkpoints").path))

        let kept = scratch.appendingPathComponent("kept.checkpoint")
        try Self.checkpoint(data).write(to: kept, atomically: true, encoding: .utf8)
        let keyText = try ItemAuditBinary.run(["proof", "key", "--data", data.path])
        #expect(keyText.status == 0)
        let key = try NoteVerifierKey(text: keyText.stdout)
        #expect(key.name == Self.origin)
        let signed = try SignedCheckpoint(String(contentsOf: kept, encoding: .utf8))
        try signed.verify(by: key)
        #expect(signed.checkpoint.origin == Self.origin && signed.checkpoint.size == 4)

        try Self.record(data, "b", 0..<5)
        _ = try Self.checkpoint(data)
        let check = try ItemAuditBinary.run([
            "verify", "--data", data.path, "--checkpoint", kept.path, "--verifier-key", keyText.stdout,
        ])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("the log holds its tree and only grew since"))
        #expect(check.stdout.contains("checkpoint") && check.stdout.contains("size 9"))
        // The JSON form follows Schemas/output/verify.json, the checkpoint and the check included.
        let json = try ItemAuditBinary.run([
            "verify", "--data", data.path, "--checkpoint", kept.path, "--format", "json",
        ])
        let value = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8))
        #expect(JSONSchemaValidator.validate(value, against: try OutputSchemaTests.schema("verify")).isEmpty)
        let object = value as? [String: Any]
        #expect((object?["checkpoint"] as? [String: Any])?["size"] as? Int == 9)
        #expect((object?["checkpointCheck"] as? [String: Any])?["status"] as? String == "consistent")

        let consistency = try ItemAuditBinary.run(["proof", "consistency", "--data", data.path, "--from", kept.path])
        #expect(consistency.status == 0, "\(consistency.stderr)")
        let proof = try ProofText.parse(consistency.stdout)
        try proof.checkpoint.verify(by: key)
        try MerkleVerification.verifyConsistency(
            oldSize: 4, newSize: 9, oldRoot: signed.checkpoint.root, newRoot: proof.checkpoint.checkpoint.root,
            proof: proof.hashes)
        let inclusion = try ItemAuditBinary.run(["proof", "inclusion", "--data", data.path, "--position", "6"])
        #expect(inclusion.status == 0, "\(inclusion.stderr)")
        let included = try ProofText.parse(inclusion.stdout)
        #expect(inclusion.stdout.hasPrefix("c2sp.org/tlog-proof@v1\nextra ") && included.number == 5)
        try MerkleVerification.verifyInclusion(
            leafHash: MerkleHash.leaf(try #require(included.extra)), index: 5, size: 9, proof: included.hashes,
            root: included.checkpoint.checkpoint.root)
    }

    @Test("a changed event: verify alone passes, verify --checkpoint names the tree and the positions")
    func changedEvent() async throws {
        let scratch = try DemoFixture.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let data = scratch.appendingPathComponent("data")
        try Self.record(data, "a", 0..<5)
        _ = try Self.checkpoint(data)
        try Self.record(data, "a", 5..<10)
        let kept = scratch.appendingPathComponent("kept.checkpoint")
        try Self.checkpoint(data).write(to: kept, atomically: true, encoding: .utf8)
        #expect(try Self.verify(data, checkpoint: kept).status == 0)

        try await Self.rewriteLog(data) { records in
            var records = records
            records[7].actor = "someone-else"
            return records
        }
        #expect(try ItemAuditBinary.run(["verify", "--data", data.path]).status == 0, "the chain alone is rebuilt")
        let check = try Self.verify(data, checkpoint: kept)
        #expect(check.status == 1)
        #expect(check.stderr.contains("the log's tree of size 10 differs from the checkpoint's"), "\(check.stderr)")
        #expect(
            check.stderr.contains(
                "the log still matches its kept checkpoint of size 5: what differs lies in positions 6-10"))
    }

    @Test("a rollback: a removed tail, then new appends; and a cut without appends")
    func rollback() async throws {
        let scratch = try DemoFixture.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let data = scratch.appendingPathComponent("data")
        try Self.record(data, "a", 0..<5)
        _ = try Self.checkpoint(data)
        try Self.record(data, "a", 5..<10)
        let kept = scratch.appendingPathComponent("kept.checkpoint")
        try Self.checkpoint(data).write(to: kept, atomically: true, encoding: .utf8)

        try await Self.rewriteLog(data) { Array($0.prefix(7)) }
        let cut = try Self.verify(data, checkpoint: kept)
        #expect(cut.status == 1)
        #expect(cut.stderr.contains("the log holds 7 events, fewer than the checkpoint's 10"), "\(cut.stderr)")

        // The attacker hides the kept checkpoint of size 10 and appends new events past it.
        try FileManager.default.removeItem(at: data.appendingPathComponent("checkpoints/10.checkpoint"))
        try Self.record(data, "z", 0..<5)
        let check = try Self.verify(data, checkpoint: kept)
        #expect(check.status == 1)
        #expect(check.stderr.contains("the log's tree of size 10 differs from the checkpoint's"), "\(check.stderr)")
        #expect(check.stderr.contains("what differs lies in positions 6-10"))
    }

    @Test("a fork: two checkpoints of the same size signed by the log's key")
    func fork() throws {
        let scratch = try DemoFixture.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let data = scratch.appendingPathComponent("data")
        try Self.record(data, "a", 0..<5)
        _ = try Self.checkpoint(data)
        let twin = scratch.appendingPathComponent("twin")
        try FileManager.default.copyItem(at: data, to: twin)
        try Self.record(data, "b", 0..<2)
        try Self.record(twin, "c", 0..<2)
        let kept = scratch.appendingPathComponent("kept.checkpoint")
        try Self.checkpoint(data).write(to: kept, atomically: true, encoding: .utf8)
        let other = try SignedCheckpoint(try Self.checkpoint(twin))
        let mine = try SignedCheckpoint(String(contentsOf: kept, encoding: .utf8))
        #expect(
            other.checkpoint.size == 7 && mine.checkpoint.size == 7 && other.checkpoint.root != mine.checkpoint.root)

        let check = try Self.verify(twin, checkpoint: kept)
        #expect(check.status == 1)
        #expect(check.stderr.contains("a fork: the log's key signed two different trees of size 7"), "\(check.stderr)")
        #expect(check.stderr.contains("what differs lies in positions 6-7"))
    }

    @Test("serve signs a checkpoint while the log has grown past the last one (--checkpoint-seconds)")
    func serveSignsCheckpoints() async throws {
        let scratch = try DemoFixture.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let data = scratch.appendingPathComponent("data")
        try Self.record(data, "a", 0..<3)
        let refused = try ItemAuditBinary.run(["serve", "--data", data.path, "--checkpoint-seconds", "100000"])
        #expect(refused.status == 2 && refused.stderr.contains("--checkpoint-seconds must be 0 to 86400"))
        let server = try ServeProcessTests.Server(
            data: data, options: ["--log-origin", Self.origin, "--checkpoint-seconds", "1"])
        defer {
            server.process.interrupt()
            server.process.waitUntilExit()
        }
        let kept = data.appendingPathComponent("checkpoints/3.checkpoint")
        // A bound so a broken schedule cannot hang the test, not a measure.
        for _ in 0..<120 where !FileManager.default.fileExists(atPath: kept.path) {
            try await Task.sleep(for: .milliseconds(250))
        }
        let signed = try SignedCheckpoint(String(contentsOf: kept, encoding: .utf8))
        #expect(signed.checkpoint.size == 3 && signed.checkpoint.origin == Self.origin)
        let key = try NoteVerifierKey(text: try ItemAuditBinary.run(["proof", "key", "--data", data.path]).stdout)
        try signed.verify(by: key)
    }

    @Test("bench proof fills a log, signs it and reports proof times against reading one event")
    func benchProof() throws {
        let scratch = try DemoFixture.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let data = scratch.appendingPathComponent("bench")
        let result = try ItemAuditBinary.run([
            "bench", "proof", "--data", data.path, "--events", "600", "--samples", "3", "--format", "json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let names = (report?["results"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
        #expect(names.count == 5 && names.contains("inclusion proof p99 vs reading one event"))
        #expect(FileManager.default.fileExists(atPath: data.appendingPathComponent("tree/tile/1/000.p/2").path))
    }
}
