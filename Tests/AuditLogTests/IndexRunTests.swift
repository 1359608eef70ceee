import Foundation
import Seeded
import Testing

@testable import AuditLog

@Suite("On-disk stream and command-id index")
struct IndexRunTests {
    /// Appends `streams` × `perStream` single-event commands, interleaved, with ids that say
    /// where they belong.
    private func fill(_ log: EventLog, streams: Int, perStream: Int) async throws {
        for round in 0..<perStream {
            for stream in 0..<streams {
                _ = try await log.append(
                    to: "task-\(stream)", expected: .exactly(UInt64(round)), commandID: "cmd-\(stream)-\(round)",
                    actor: "a", events: [event("E", "s\(stream) r\(round)")])
            }
        }
    }

    /// Checks versions, stream reads and idempotency of every command appended by ``fill``.
    private func check(_ log: EventLog, streams: Int, perStream: Int) async throws {
        #expect(log.lastPosition == UInt64(streams * perStream))
        for stream in 0..<streams {
            #expect(log.streamVersion(of: "task-\(stream)") == UInt64(perStream))
            var versions: [UInt64] = []
            for try await record in log.records(stream: "task-\(stream)") {
                #expect(record.streamID == "task-\(stream)")
                versions.append(record.streamVersion)
            }
            #expect(versions == Array(1...UInt64(perStream)))
            var late: [UInt64] = []
            for try await record in log.records(stream: "task-\(stream)", fromVersion: UInt64(perStream)) {
                late.append(record.streamVersion)
            }
            #expect(late == [UInt64(perStream)])
        }
        #expect(log.streamVersion(of: "task-missing") == 0)
        for stream in 0..<streams {
            for round in 0..<perStream {
                let again = try await log.append(
                    to: "task-\(stream)", expected: .any, commandID: "cmd-\(stream)-\(round)", actor: "a",
                    events: [event("E", "again")])
                let position = UInt64(round * streams + stream + 1)
                #expect(
                    again
                        == AppendResult(
                            positions: position...position, streamVersion: UInt64(round + 1), wasDuplicate: true))
            }
        }
        #expect(log.lastPosition == UInt64(streams * perStream))
    }

    @Test("hash collisions (a 2-bit hash) never give a wrong version, stream or duplicate, in memory or on disk")
    func collisions() async throws {
        let directory = try TemporaryDirectory()
        var configuration = smallConfiguration
        configuration.keyHash = KeyHash(mask: 0x3)
        var log = try openLog(directory.url, configuration)
        try await fill(log, streams: 9, perStream: 12)
        try await check(log, streams: 9, perStream: 12)
        try log.close()
        log = try openLog(directory.url, configuration)
        #expect(!log.recovery.rebuiltIndex)
        let runs = log.stateLock.withLock { log.index.commandRuns.count + log.index.streamRuns.count }
        #expect(runs >= 2)
        try await check(log, streams: 9, perStream: 12)
        // A new command whose hash is taken on disk is not a duplicate.
        let fresh = try await log.append(
            to: "task-0", expected: .exactly(12), commandID: "cmd-new", actor: "a", events: [event("E", "new")])
        #expect(!fresh.wasDuplicate && fresh.positions == 109...109 && fresh.streamVersion == 13)
        try log.close()
    }

    @Test("checkpoints write only new entries as runs and merge them; runs no longer named are removed")
    func runsAreWrittenAndMerged() async throws {
        let directory = try TemporaryDirectory()
        let log = try openLog(directory.url)
        try await fill(log, streams: 5, perStream: 40)
        // Merges run on their own thread; the writer swaps them in at its next commit.
        log.merger.waitUntilIdle()
        _ = try await log.append(to: "other", expected: .any, commandID: "last", actor: "a", events: [event("E", "x")])
        let (recent, commandRuns) = log.stateLock.withLock {
            (log.index.recent.commandCount, log.index.commandRuns)
        }
        #expect(recent < 201)
        #expect(commandRuns.reduce(0) { $0 + $1.count } + recent == 201)
        #expect(commandRuns.count <= 8)
        try log.close()
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter {
            $0.hasSuffix(".run")
        }
        let named = log.stateLock.withLock { (log.index.commandRuns + log.index.streamRuns).map(\.name) }
        #expect(Set(files) == Set(named))
    }

    @Test("a crash mid-merge: the checkpoint's runs are intact, the half-written run is removed, no rebuild")
    func crashMidMerge() async throws {
        let directory = try TemporaryDirectory()
        var log = try openLog(directory.url)
        try await fill(log, streams: 5, perStream: 40)
        try log.close()
        let named = Set(log.stateLock.withLock { (log.index.commandRuns + log.index.streamRuns).map(\.name) })
        // What a merge killed halfway leaves: a run file no checkpoint names, cut short.
        let leftover = directory.url.appendingPathComponent(IndexRun.fileName(kind: .commands, sequence: 9_999_999))
        try Data(Array("IAIXRUN1".utf8) + [1, 0, 0]).write(to: leftover)
        log = try openLog(directory.url)
        #expect(!log.recovery.rebuiltIndex)
        #expect(!FileManager.default.fileExists(atPath: leftover.path))
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter {
            $0.hasSuffix(".run")
        }
        #expect(Set(files) == named)
        try await check(log, streams: 5, perStream: 40)
        try log.close()
    }

    @Test("a missing, damaged or differently hashed run is stale: the index is rebuilt from the log")
    func staleRunsAreRebuilt() async throws {
        let directory = try TemporaryDirectory()
        var log = try openLog(directory.url)
        try await fill(log, streams: 4, perStream: 20)
        try log.close()
        func runFiles() throws -> [URL] {
            try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.hasSuffix(".run") }
                .sorted().map { directory.url.appendingPathComponent($0) }
        }

        // Missing.
        try FileManager.default.removeItem(at: try runFiles()[0])
        log = try openLog(directory.url)
        #expect(log.recovery.rebuiltIndex)
        try await check(log, streams: 4, perStream: 20)
        try log.close()

        // Damaged: one flipped byte in an entry.
        log = try openLog(directory.url)
        #expect(!log.recovery.rebuiltIndex)
        try log.close()
        let victim = try runFiles()[0]
        var bytes = try [UInt8](Data(contentsOf: victim))
        bytes[IndexRun.headerSize + 3] ^= 0x10
        try Data(bytes).write(to: victim)
        log = try openLog(directory.url)
        #expect(log.recovery.rebuiltIndex)
        try await check(log, streams: 4, perStream: 20)
        try log.close()

        // Made with another hash.
        var configuration = smallConfiguration
        configuration.keyHash = KeyHash(mask: 0xFF)
        log = try openLog(directory.url, configuration)
        #expect(log.recovery.rebuiltIndex)
        try await check(log, streams: 4, perStream: 20)
        try log.close()
    }

    @Test("interpolation search finds every key, including runs of equal keys and absent keys")
    func runLookup() throws {
        let directory = try TemporaryDirectory()
        var keys: [UInt64] = [0, 0, 5, 9, 9, 9, 1 << 40, .max - 1, .max]
        var random = SeededRandom(seed: 42)
        for _ in 0..<500 { keys.append(random.next()) }
        keys.sort()
        var writer = ByteWriter()
        for (offset, key) in keys.enumerated() {
            writer.fixed(key)
            writer.fixed(UInt64(offset))
        }
        let run = try writer.bytes.withUnsafeBytes {
            try IndexRun.write(
                kind: .commands, entries: $0, count: keys.count, mask: .max, name: "test.run", directory: directory.url)
        }
        for key in Set(keys) {
            let found = run.entries(for: key)
            #expect(found.map { run.key($0) } == keys.filter { $0 == key })
        }
        for absent: UInt64 in [1, 6, 10, 1 << 41, .max - 2] where !keys.contains(absent) {
            #expect(run.entries(for: absent).isEmpty)
        }
    }

    @Test("a run's key filter never turns away a key the run holds and turns away most others")
    func runFilter() throws {
        let directory = try TemporaryDirectory()
        var random = SeededRandom(seed: 7)
        func next() -> UInt64 { KeyHash.full(withUnsafeBytes(of: random.next()) { $0 }) }
        let keys = (0..<5_000).map { _ in next() }.sorted()
        var writer = ByteWriter()
        for (offset, key) in keys.enumerated() {
            writer.fixed(key)
            writer.fixed(UInt64(offset))
        }
        let run = try writer.bytes.withUnsafeBytes {
            try IndexRun.write(
                kind: .commands, entries: $0, count: keys.count, mask: .max, name: "filter.run",
                directory: directory.url)
        }
        let view = run.keys
        #expect(view.filter != nil)
        #expect(keys.allSatisfy { view.contains($0) && view.filter!.mayContain($0) })
        let present = Set(keys)
        let absent = (0..<5_000).map { _ in next() }.filter { !present.contains($0) }
        let passed = absent.filter { view.filter!.mayContain($0) }.count
        #expect(passed < absent.count / 20, "\(passed) of \(absent.count) absent keys passed the filter")
        #expect(absent.allSatisfy { !view.contains($0) })
    }
}
