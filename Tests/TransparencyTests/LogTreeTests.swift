import AuditLog
import AuditService
import Chronology
import Foundation
import Logging
import PostgresTestSupport
import Proofs
import TestSupport
import Testing

/// The log's Merkle tree: its leaves (``LogTreeLeaf``), the same root in both stores and after
/// `store copy`, checkpoints made, kept and checked, and the proofs the commands print.
@Suite struct LogTreeTests {
    static let logger = Logger(label: "itemaudit.test.tree") { _ in SwiftLogNoOpLogHandler() }

    /// Writes `count` events over a few streams into a new file log in `directory`, at recorded-at
    /// times a manual clock gives, so two runs write the same history.
    static func writeLog(_ directory: DataDirectory, count: Int, payloadSeed: UInt8 = 0) async throws {
        let clock = ManualClock(Timestamp(microsecondsSinceEpoch: 1_780_000_000_000_000))
        let log = try EventLog.open(directory: directory.log, clock: clock, logger: logger)
        for index in 0..<count {
            clock.advance(microseconds: 1_000)
            _ = try await log.append(
                to: "stream-\(index % 3)", expected: .any, commandID: "command-\(index)", actor: "tester",
                events: [
                    ProposedEvent(
                        eventType: "Tested", occurredAt: clock.now(), payload: [UInt8(index & 0xFF), payloadSeed])
                ])
        }
        try log.close()
    }

    @Test func theLeafIsPositionStreamVersionRecordedAtAndTheContentDigest() throws {
        let record = EventRecord(
            position: 7, streamID: "s", streamVersion: 3, eventType: "T", schemaVersion: 1,
            recordedAt: Timestamp(microsecondsSinceEpoch: 0x0102_0304),
            occurredAt: Timestamp(microsecondsSinceEpoch: 5),
            actor: "a", commandID: "c", payload: [1, 2])
        let data = LogTreeLeaf.data(of: record)
        #expect(data.count == 56)
        #expect(Array(data[0..<8]) == [7, 0, 0, 0, 0, 0, 0, 0])
        #expect(Array(data[8..<16]) == [3, 0, 0, 0, 0, 0, 0, 0])
        #expect(Array(data[16..<24]) == [4, 3, 2, 1, 0, 0, 0, 0])
        #expect(Array(data[24...]) == RecordChain.digest(of: record))
    }

    @Test func theRootIsTheTreeOverTheRecordsLeavesAndStoreCopyKeepsIt() async throws {
        try await withTemporaryDirectory { root in
            let source = DataDirectory(root.appendingPathComponent("source"))
            try await Self.writeLog(source, count: 37)
            let log = try EventLog.open(
                directory: source.log, configuration: .init(readOnly: true), logger: Self.logger)
            let expected = try MerkleTree(leafData: log.readRecords().map(LogTreeLeaf.data(of:))).root()
            try log.close()
            #expect(try AuditProofs.treeRoot(source) == RecordChain.hex(expected))
            let copy = DataDirectory(root.appendingPathComponent("copy"))
            _ = try await StoreCopy.copy(from: source, to: copy)
            #expect(try AuditProofs.treeRoot(copy) == RecordChain.hex(expected))
            #expect(try AuditProofs.treeRoot(copy, size: 0) == RecordChain.hex(MerkleHash.emptyRoot))
        }
    }

    @Test func postgresGivesTheSameRootAsTheFileLog() async throws {
        let database = try TemporaryDatabase()
        try await withTemporaryDirectory { root in
            let source = DataDirectory(root.appendingPathComponent("source"))
            try await Self.writeLog(source, count: 20)
            _ = try await StoreCopy.copy(from: source.path, to: database.urlString)
            let location = LogStoreLocation(url: database.urlString)
            let other = DataDirectory(root.appendingPathComponent("server"))
            for size: UInt64 in [0, 1, 13, 20] {
                #expect(
                    try AuditProofs.treeRoot(other, location: location, size: size)
                        == (try AuditProofs.treeRoot(source, size: size)))
            }
            // Checkpoints and proofs on PostgreSQL are the file log's.
            let onFile = try AuditProofs.makeCheckpoint(source, identity: .init(origin: "audit.example.com/log"))
            let onPostgres = try AuditProofs.makeCheckpoint(
                other, location: location, identity: .init(origin: "audit.example.com/log"))
            #expect(onFile.size == 20 && onPostgres.size == 20 && onFile.root == onPostgres.root)
            let fileProof = try ProofText.parse(AuditProofs.inclusionProof(source, position: 13))
            let postgresProof = try ProofText.parse(AuditProofs.inclusionProof(other, location: location, position: 13))
            #expect(fileProof.hashes == postgresProof.hashes && fileProof.extra == postgresProof.extra)
            let check = try AuditProofs.verifyCheckpoint(other, location: location, text: onPostgres.text, file: "pg")
            #expect(check.isConsistent, "\(check.findings)")
        }
    }

    @Test func aCheckpointIsSignedKeptAndChecksAgainstTheLog() async throws {
        try await withTemporaryDirectory { root in
            let data = DataDirectory(root.appendingPathComponent("data"))
            try await Self.writeLog(data, count: 10)
            // A reader makes nothing: no key yet.
            #expect(throws: AuditServiceError.self) { try AuditProofs.verifierKey(data) }
            #expect(throws: AuditServiceError.self) { try AuditProofs.makeCheckpoint(data, identity: .init()) }
            #expect(!FileManager.default.fileExists(atPath: data.keys.path))
            let first = try AuditProofs.makeCheckpoint(data, identity: .init(publicURL: "https://audit.example.com/"))
            #expect(first.keyCreated == true && first.origin == "audit.example.com" && first.size == 10)
            let key = try NoteVerifierKey(text: try AuditProofs.verifierKey(data))
            let signed = try SignedCheckpoint(first.text)
            try signed.verify(by: key)
            #expect(signed.checkpoint.text.hasPrefix("audit.example.com\n10\n"))
            #expect(AuditProofs.latestCheckpoint(data)?.text == first.text)

            let check = try AuditProofs.verifyCheckpoint(data, text: first.text, file: "first")
            #expect(check.isConsistent && check.findings.isEmpty && check.proofHashes == 0)

            // The log grows; the old checkpoint is still consistent, with a real proof.
            try await Self.append(data, from: 10, count: 7)
            let second = try AuditProofs.makeCheckpoint(data, identity: .init())
            #expect(second.keyCreated == false && second.size == 17)
            let later = try AuditProofs.verifyCheckpoint(data, text: first.text, file: "first")
            #expect(later.isConsistent && later.logSize == 17 && (later.proofHashes ?? 0) > 0)
            #expect(later.consistentWithKeptUpTo == 10)

            // The printed proofs verify with the hashes alone.
            let consistency = try ProofText.parse(AuditProofs.consistencyProof(data, from: first.text, file: "first"))
            #expect(consistency.number == 10 && consistency.checkpoint.text == second.text)
            try MerkleVerification.verifyConsistency(
                oldSize: 10, newSize: 17, oldRoot: signed.checkpoint.root,
                newRoot: consistency.checkpoint.checkpoint.root,
                proof: consistency.hashes)
            for position: UInt64 in [1, 9, 17] {
                let inclusion = try ProofText.parse(AuditProofs.inclusionProof(data, position: position))
                let leaf = try #require(inclusion.extra)
                #expect(leaf.count == 56 && leaf[0] == UInt8(position))
                try MerkleVerification.verifyInclusion(
                    leafHash: MerkleHash.leaf(leaf), index: inclusion.number, size: 17, proof: inclusion.hashes,
                    root: inclusion.checkpoint.checkpoint.root)
            }
            #expect(throws: AuditServiceError.self) { try AuditProofs.inclusionProof(data, position: 18) }
        }
    }

    @Test func aCheckpointOfAnotherHistoryIsNamedAsDifferent() async throws {
        try await withTemporaryDirectory { root in
            let data = DataDirectory(root.appendingPathComponent("data"))
            try await Self.writeLog(data, count: 8)
            let kept = try AuditProofs.makeCheckpoint(data, identity: .init(origin: "audit.example.com/log"))
            // The same key signs a different history of the same size.
            let other = DataDirectory(root.appendingPathComponent("other"))
            try await Self.writeLog(other, count: 8, payloadSeed: 1)
            try FileManager.default.copyItem(at: data.keys, to: other.keys)
            let forged = try AuditProofs.makeCheckpoint(other, identity: .init())
            #expect(forged.size == 8 && forged.root != kept.root)
            let check = try AuditProofs.verifyCheckpoint(other, text: kept.text, file: "kept.checkpoint")
            #expect(!check.isConsistent)
            #expect(check.findings.contains { $0.hasPrefix("the log's tree of size 8 differs from the checkpoint's") })
            #expect(
                check.findings.contains { $0.hasPrefix("a fork: the log's key signed two different trees of size 8") })
            // The forged log refuses to sign on top of a kept checkpoint it no longer holds.
            try FileManager.default.copyItem(
                at: data.checkpoints.appendingPathComponent("8.checkpoint"),
                to: other.checkpoints.appendingPathComponent("8.checkpoint"), replacing: true)
            #expect(throws: AuditServiceError.self) { try AuditProofs.makeCheckpoint(other, identity: .init()) }
        }
    }

    static func append(_ directory: DataDirectory, from start: Int, count: Int) async throws {
        let log = try EventLog.open(directory: directory.log, logger: logger)
        for index in start..<(start + count) {
            _ = try await log.append(
                to: "stream-\(index % 3)", expected: .any, commandID: "command-\(index)", actor: "tester",
                events: [
                    ProposedEvent(eventType: "Tested", occurredAt: Timestamp(microsecondsSinceEpoch: 1), payload: [])
                ])
        }
        try log.close()
    }
}

extension FileManager {
    fileprivate func copyItem(at source: URL, to target: URL, replacing: Bool) throws {
        if replacing { try? removeItem(at: target) }
        try createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try copyItem(at: source, to: target)
    }
}

/// The tree stored from level 1 up in tiles: written by checkpoints, used by proofs, and checked
/// against the records by `verify --checkpoint`.
@Suite struct StoredTreeTests {
    @Test func checkpointsStoreTilesProofsUseThemAndAChangedBlockIsNamed() async throws {
        try await withTemporaryDirectory { root in
            let data = DataDirectory(root.appendingPathComponent("data"))
            try await LogTreeTests.writeLog(data, count: 600)
            let first = try AuditProofs.makeCheckpoint(data, identity: .init(origin: "audit.example.com/log"))
            let partial = data.tree.appendingPathComponent("tile/1/000.p/2")
            #expect((try? Data(contentsOf: partial))?.count == 64)

            try await LogTreeTests.append(data, from: 600, count: 200)
            let second = try AuditProofs.makeCheckpoint(data, identity: .init())
            #expect(second.size == 800)
            #expect((try? Data(contentsOf: data.tree.appendingPathComponent("tile/1/000.p/3")))?.count == 96)
            #expect(!FileManager.default.fileExists(atPath: partial.path), "the narrower tile is replaced")

            // Proofs over the tiles are the in-memory tree's.
            let log = try EventLog.open(
                directory: data.log, configuration: .init(readOnly: true), logger: LogTreeTests.logger)
            let tree = MerkleTree(leafData: try log.readRecords().map(LogTreeLeaf.data(of:)))
            try log.close()
            for position: UInt64 in [1, 256, 257, 700, 800] {
                let proof = try ProofText.parse(AuditProofs.inclusionProof(data, position: position))
                #expect(proof.hashes == (try tree.inclusionProof(index: Int(position - 1))), "position \(position)")
            }
            let consistency = try ProofText.parse(AuditProofs.consistencyProof(data, from: first.text, file: "first"))
            #expect(consistency.hashes == (try tree.consistencyProof(from: 600, to: 800)))

            // An attacker rewrites one record in the second block, chain and all.
            try await rewrite(data) { records in
                var records = records
                records[299].actor = "someone-else"
                return records
            }
            let check = try AuditProofs.verifyCheckpoint(data, text: second.text, file: "second")
            #expect(!check.isConsistent)
            #expect(check.findings.contains { $0.hasPrefix("the log's tree of size 800 differs") })
            #expect(
                check.findings.contains { $0.hasPrefix("the records at positions 257-512 no longer give the hashes") })
            #expect(
                check.findings.contains { $0.hasPrefix("no checkpoint kept with the log matches it below size 800") })
        }
    }

    @Test func aLogPastOneFullLevelOneTileStoresLevelTwoAndItsProofsVerify() async throws {
        try await withTemporaryDirectory { root in
            let data = DataDirectory(root.appendingPathComponent("data"))
            let log = try EventLog.open(directory: data.log, logger: LogTreeTests.logger)
            // 66,000 events: one full level-1 tile (65,536 events), a partial one, and level 2.
            for batch in 0..<66 {
                let events = (0..<1000).map {
                    ProposedEvent(
                        eventType: "Tested", occurredAt: Timestamp(microsecondsSinceEpoch: 1),
                        payload: [UInt8($0 & 0xFF)])
                }
                _ = try await log.append(
                    contentsOf: [
                        StreamAppend(streamID: "s", expected: .any, commandID: "c\(batch)", actor: "t", events: events)
                    ])
            }
            try log.close()
            let made = try AuditProofs.makeCheckpoint(data, identity: .init(origin: "audit.example.com/log"))
            #expect(made.size == 66_000)
            let tile = { (path: String) in (try? Data(contentsOf: data.tree.appendingPathComponent(path)))?.count }
            #expect(tile("tile/1/000") == 256 * 32)
            #expect(tile("tile/1/001.p/1") == 32)
            #expect(tile("tile/2/000.p/1") == 32)
            let key = try NoteVerifierKey(text: try AuditProofs.verifierKey(data))
            for position: UInt64 in [1, 65_536, 65_537, 66_000] {
                let proof = try ProofText.parse(AuditProofs.inclusionProof(data, position: position))
                try proof.checkpoint.verify(by: key)
                try MerkleVerification.verifyInclusion(
                    leafHash: MerkleHash.leaf(try #require(proof.extra)), index: Int(position - 1), size: 66_000,
                    proof: proof.hashes, root: proof.checkpoint.checkpoint.root)
            }
            let check = try AuditProofs.verifyCheckpoint(data, text: made.text, file: "made")
            #expect(check.isConsistent, "\(check.findings)")
        }
    }

    func rewrite(_ data: DataDirectory, _ transform: ([EventRecord]) -> [EventRecord]) async throws {
        let reader = try EventLog.open(
            directory: data.log, configuration: .init(readOnly: true), logger: LogTreeTests.logger)
        let records = transform(try reader.readRecords())
        try reader.close()
        let fresh = data.url.appendingPathComponent("log.rewritten")
        let writer = try EventLog.open(directory: fresh, logger: LogTreeTests.logger)
        try await writer.appendCopies(records)
        try writer.close()
        try FileManager.default.removeItem(at: data.log)
        try FileManager.default.moveItem(at: fresh, to: data.log)
    }
}
