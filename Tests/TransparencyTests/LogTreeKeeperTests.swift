import AuditLog
import Chronology
import Foundation
import PostgresLog
import PostgresTestSupport
import Proofs
import TestSupport
import Testing

@testable import AuditService

/// The tree `serve` keeps between its checkpoints (``LogTreeKeeper``): extended by the records
/// appended since the last update only, signed only when it grew, its tiles the same as the tree
/// computed from every record, in both stores.
@Suite struct LogTreeKeeperTests {
    static let origin = AuditProofs.LogIdentity(origin: "audit.example.com/log")

    /// Appends `count` one-event commands numbered from `start` to `store`.
    static func append(_ store: any EventStore, from start: Int, count: Int) async throws {
        for index in start..<(start + count) {
            _ = try await store.append(
                to: "stream-\(index % 3)", expected: .any, commandID: "command-\(index)", actor: "tester",
                events: [
                    ProposedEvent(
                        eventType: "Tested", occurredAt: Timestamp(microsecondsSinceEpoch: 1),
                        payload: [UInt8(index & 0xFF)])
                ])
        }
    }

    /// The leaf hashes of every record of `store`, computed afresh.
    static func leafHashes(_ store: any EventStore) throws -> [[UInt8]] {
        try store.readRecords().map { MerkleHash.leaf(LogTreeLeaf.data(of: $0)) }
    }

    @Test func anUpdateAfterKAppendsReadsOnlyTheKNewRecordsAndSignsOnlyWhenTheTreeGrew() async throws {
        try await withTemporaryDirectory { root in
            let data = DataDirectory(root.appendingPathComponent("data"))
            let log = try EventLog.open(directory: data.log, logger: LogTreeTests.logger)
            defer { try? log.close() }
            try await Self.append(log, from: 0, count: 600)

            var keeper = try LogTreeKeeper(data, store: log, identity: Self.origin)
            #expect(keeper.recordsRead == 600, "no tiles yet: the first opening reads the log once")
            let first = try #require(try await keeper.signIfGrown())
            #expect(first.size == 600 && first.keyCreated == true && keeper.recordsRead == 600)

            for (appended, total) in [(7, 607), (300, 907), (1, 908)] {
                let before = keeper.recordsRead
                try await Self.append(log, from: total - appended, count: appended)
                let made = try #require(try await keeper.signIfGrown())
                #expect(keeper.recordsRead - before == appended, "after \(appended) appends")
                let hashes = try Self.leafHashes(log)
                #expect(made.size == total)
                #expect(made.root == Data(try MerkleTree(leafHashes: hashes).root()).base64EncodedString())
                #expect(TileStore(data).blockHashes() == TiledTree.blockRoots(hashes))
                #expect(AuditProofs.latestCheckpoint(data)?.text == made.text)
            }

            // Nothing appended: nothing read, nothing signed.
            let kept = try FileManager.default.contentsOfDirectory(atPath: data.checkpoints.path).count
            let before = keeper.recordsRead
            #expect(try await keeper.signIfGrown() == nil)
            #expect(keeper.recordsRead == before)
            #expect(try FileManager.default.contentsOfDirectory(atPath: data.checkpoints.path).count == kept)

            // Opened again (a restarted server), it reads only the records after the last full block.
            let reopened = try LogTreeKeeper(data, store: log, identity: .init())
            #expect(reopened.recordsRead == 908 % 256 && reopened.size == 908)
            #expect(reopened.root == keeper.root)
        }
    }

    @Test func aCheckpointSignedElsewhereIsCheckedBeforeTheNextOne() async throws {
        try await withTemporaryDirectory { root in
            let data = DataDirectory(root.appendingPathComponent("data"))
            let log = try EventLog.open(directory: data.log, logger: LogTreeTests.logger)
            defer { try? log.close() }
            try await Self.append(log, from: 0, count: 40)
            var keeper = try LogTreeKeeper(data, store: log, identity: Self.origin)
            _ = try await keeper.signIfGrown()
            try await Self.append(log, from: 40, count: 10)
            // `proof checkpoint` beside the server signs 50.
            var other = try LogTreeKeeper(data, store: log, identity: .init())
            #expect(try other.sign().size == 50)
            #expect(try await keeper.signIfGrown() == nil, "the tree of 50 is signed already")
            try await Self.append(log, from: 50, count: 3)
            #expect(try await keeper.signIfGrown()?.size == 53)

            // A checkpoint of another tree kept since (size 55) stops the keeper signing.
            try await Self.append(log, from: 53, count: 3)
            let key = try #require(try LogKeyFile(directory: data, explicit: nil).load())
            let wrong = TreeCheckpoint(origin: key.verifier.name, size: 55, root: [UInt8](repeating: 7, count: 32))
            try KeptCheckpoints(data).keep(try key.sign(wrong.text), size: 55)
            await #expect(throws: AuditServiceError.self) { _ = try await keeper.signIfGrown() }
            #expect(AuditProofs.latestCheckpoint(data)?.size == 55, "nothing signed over it")
        }
    }

    @Test func tilesWrittenUpdateByUpdateAreTheTilesOfTheWholeTree() async throws {
        try await withTemporaryDirectory { root in
            let data = DataDirectory(root.appendingPathComponent("data"))
            let log = try EventLog.open(directory: data.log, logger: LogTreeTests.logger)
            defer { try? log.close() }
            var keeper = try LogTreeKeeper(data, store: log, identity: Self.origin)
            // 66,000 events in updates of 7,000: one full level-1 tile, a partial one, and level 2.
            for batch in 0..<66 {
                let events = (0..<1000).map {
                    ProposedEvent(
                        eventType: "Tested", occurredAt: Timestamp(microsecondsSinceEpoch: 1),
                        payload: [UInt8($0 & 0xFF), UInt8(batch)])
                }
                _ = try await log.append(
                    contentsOf: [
                        StreamAppend(streamID: "s", expected: .any, commandID: "c\(batch)", actor: "t", events: events)
                    ])
                if batch % 7 == 6 { _ = try await keeper.signIfGrown() }
            }
            #expect(try await keeper.signIfGrown()?.size == 66_000)
            #expect(keeper.recordsRead == 66_000)
            let hashes = try Self.leafHashes(log)
            #expect(Self.files(in: data.tree) == Self.expectedTiles(blockRoots: TiledTree.blockRoots(hashes)))
            #expect(keeper.root == (try MerkleTree(leafHashes: hashes).root()))
        }
    }

    @Test func onPostgresTheKeeperSeesEveryServersAppendsAndReadsOnlyThem() async throws {
        let database = try TemporaryDatabase()
        try await withTemporaryDirectory { root in
            let writer = try PostgresEventStore.open(url: database.url, logger: LogTreeTests.logger)
            defer { try? writer.close() }
            let second = try PostgresEventStore.open(url: database.url, logger: LogTreeTests.logger)
            defer { try? second.close() }
            try await Self.append(writer, from: 0, count: 300)
            let data = DataDirectory(root.appendingPathComponent("server"))
            var keeper = try LogTreeKeeper(data, store: writer, identity: Self.origin)
            _ = try await keeper.signIfGrown()
            #expect(keeper.recordsRead == 300)

            // Another server appends to the same database; the keeper reads only those records.
            try await Self.append(second, from: 300, count: 9)
            let made = try #require(try await keeper.signIfGrown())
            #expect(made.size == 309 && keeper.recordsRead == 309)
            let hashes = try Self.leafHashes(second)
            #expect(made.root == Data(try MerkleTree(leafHashes: hashes).root()).base64EncodedString())
            #expect(TileStore(data).blockHashes() == TiledTree.blockRoots(hashes))
            #expect(
                try AuditProofs.treeRoot(data, location: LogStoreLocation(url: database.urlString))
                    == RecordChain.hex(keeper.root))
        }
    }

    /// Every file under `folder` (relative path → contents).
    static func files(in folder: URL) -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            files[String(url.path.dropFirst(folder.path.count + 1))] = FileManager.default.contents(atPath: url.path)
        }
        return files
    }

    /// The tiles C2SP tlog-tiles lays out for these level-1 hashes: each level's full tiles and
    /// its last partial one, the next level holding the roots of the full tiles below.
    static func expectedTiles(blockRoots: [[UInt8]]) -> [String: Data] {
        var files: [String: Data] = [:]
        var level = 1
        var hashes = blockRoots
        while !hashes.isEmpty {
            var next: [[UInt8]] = []
            for start in stride(from: 0, to: hashes.count, by: 256) {
                let tile = Array(hashes[start..<min(hashes.count, start + 256)])
                files[TilePath.path(level: level, index: start / 256, width: tile.count)] = Data(tile.joined())
                if tile.count == 256 {
                    var builder = MerkleRootBuilder()
                    for hash in tile { builder.append(leafHash: hash) }
                    next.append(builder.root)
                }
            }
            hashes = next
            level += 1
        }
        return files
    }
}
