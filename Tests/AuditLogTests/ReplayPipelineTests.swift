import Chronology
import Foundation
import Seeded
import Testing

@testable import AuditLog

/// `forEachRecord` reads, checks and decompresses on a reader thread: these tests check that it
/// delivers exactly what a sequential read does, stops when the caller does, and reports a
/// damaged frame after every record before it.
@Suite struct ReplayPipelineTests {
    /// A log of 40 batches of 25 events over small frames and segments (many frames in flight).
    private func filledLog(_ directory: URL) async throws -> EventLog {
        let log = try openLog(directory, EventLog.Configuration(segmentSize: 64 << 10, frameSize: 2 << 10))
        for batch in 0..<40 {
            let appends = (0..<25).map { index in
                StreamAppend(
                    streamID: "task-\((batch * 25 + index) / 7)", expected: .any, commandID: "cmd-\(batch)-\(index)",
                    actor: "inspector-\((batch + index) % 13)",
                    events: [event(index % 3 == 0 ? "PhotoAttached" : "ProductCollected", "payload \(batch)-\(index)")])
            }
            _ = try await log.append(contentsOf: appends)
        }
        return log
    }

    /// The records by the in-place views: a path without the reader thread.
    private func viewed(_ log: EventLog, from start: UInt64 = 1, upTo end: UInt64? = nil) throws -> [EventRecord] {
        var records: [EventRecord] = []
        try log.forEachRecordView(from: start, upTo: end) { records.append($0.record) }
        return records
    }

    @Test("kept records, whole log and sub-ranges: the same as the sequential view path")
    func sameRecords() async throws {
        let directory = try TemporaryDirectory()
        let log = try await filledLog(directory.url)
        #expect(log.stateLock.withLock { log.index.frames.count } > 20)
        let all = try log.allRecords()
        #expect(all.count == 1000)
        #expect(all.map(\.position) == Array(1...1000))
        #expect(all == (try viewed(log)))
        for (start, end) in [(1, 1), (3, 17), (101, 899), (990, 2000)] as [(UInt64, UInt64)] {
            var records: [EventRecord] = []
            try log.forEachRecord(from: start, upTo: end) { records.append($0) }
            #expect(records == (try viewed(log, from: start, upTo: end)), "\(start)...\(end)")
        }
        // Records not kept: buffers are recycled, and each record is right while it is delivered.
        var expected = all.makeIterator()
        var mismatches = 0
        try log.forEachRecord { record in
            if record != expected.next() { mismatches += 1 }
        }
        #expect(mismatches == 0)
        try log.close()
    }

    @Test("event types, stream ids and actors long and short, shared or not, repeating or not: decoded exactly")
    func mixedStrings() async throws {
        let directory = try TemporaryDirectory()
        let log = try openLog(directory.url, EventLog.Configuration(segmentSize: 64 << 10, frameSize: 2 << 10))
        let types = [
            "A", "ShortType", "AttributeVerdictRecorded", String(repeating: "LongEventTypeName", count: 3), "",
        ]
        var appended: [(stream: String, type: String, actor: String, command: String, payload: [UInt8])] = []
        for batch in 0..<30 {
            var appends: [StreamAppend] = []
            for index in 0..<20 {
                let n = batch * 20 + index
                let stream = n % 5 == 0 ? "stream-with-a-rather-long-identifier-\(n / 3)" : "s-\(n / 4)"
                let actor = n % 7 == 0 ? "actor-with-a-name-longer-than-thirty-two-bytes-\(n % 3)" : "a\(n % 3)"
                let type = types[(n * 7 / 3) % types.count]
                let payload: [UInt8] = n % 9 == 0 ? [] : Array("payload \(n)".utf8)
                let command = "cmd-\(n)"
                appends.append(
                    StreamAppend(
                        streamID: stream, expected: .any, commandID: command, actor: actor,
                        events: [
                            ProposedEvent(
                                eventType: type, schemaVersion: UInt16(n % 3),
                                occurredAt: Timestamp(microsecondsSinceEpoch: Int64(n)),
                                payload: payload)
                        ]))
                appended.append((stream, type, actor, command, payload))
            }
            _ = try await log.append(contentsOf: appends)
        }
        var kept: [EventRecord] = []
        var mismatches = 0
        try log.forEachRecord { record in
            let expected = appended[Int(record.position) - 1]
            if record.streamID != expected.stream || record.eventType != expected.type || record.actor != expected.actor
                || record.commandID != expected.command || record.payload != expected.payload
            {
                mismatches += 1
            }
            kept.append(record)
        }
        #expect(mismatches == 0)
        #expect(kept.count == appended.count)
        #expect(kept == (try viewed(log)))
        #expect(kept.map(\.eventType) == appended.map(\.type))
        try log.close()
    }

    @Test("throwing from the body stops the replay there; the log replays and closes afterwards")
    func earlyExit() async throws {
        struct Enough: Error {}
        let directory = try TemporaryDirectory()
        let log = try await filledLog(directory.url)
        var seen = 0
        #expect(throws: Enough.self) {
            try log.forEachRecord { _ in
                seen += 1
                if seen == 10 { throw Enough() }
            }
        }
        #expect(seen == 10)
        #expect(try log.allRecords().count == 1000)
        try log.close()
    }

    @Test("a damaged frame in the middle: every record before it is delivered, then the frame is named")
    func damagedFrame() async throws {
        let directory = try TemporaryDirectory()
        let log = try await filledLog(directory.url)
        let frames = log.stateLock.withLock { log.index.frames }
        let damaged = frames[frames.count / 2]
        let url = directory.url.appendingPathComponent(Segment.fileName(damaged.segment))
        var bytes = try [UInt8](Data(contentsOf: url))
        bytes[Int(damaged.offset) + FrameHeader.size + 3] ^= 0x01
        try Data(bytes).write(to: url)
        var positions: [UInt64] = []
        let error = try #require(throws: EventLogError.self) {
            try log.forEachRecord { positions.append($0.position) }
        }
        #expect(error.code == .corruptFrame)
        #expect(error.context["offset"] == String(damaged.offset))
        #expect(error.context["positions"] == "\(damaged.firstPosition)-\(damaged.lastPosition)")
        #expect(positions == Array(1..<damaged.firstPosition))
        try log.close()
    }
}

@Suite struct StringTableTests {
    @Test("every lookup returns the string for its own bytes: colliding slots, long and empty keys")
    func lookups() {
        var table = StringTable()
        var assigning = StringTable()
        let keys =
            (0..<500).map { "k\($0 % 3 == 0 ? "-long-enough-to-pass-thirty-two-bytes-" : "-")\($0)" } + ["", "a", "é"]
        var wrong = 0
        var field = ""
        var slot = -1
        for round in 0..<3 {
            var generator = SeededRandom(seed: UInt64(round))
            // Each key twice in a row, as stream ids and actors repeat in runs.
            for key in keys.shuffled(using: &generator).flatMap({ [$0, $0] }) {
                // A fresh slot memo: a plain lookup, whatever the field held.
                var value = ""
                var fresh = -1
                Array(key.utf8).withUnsafeBytes { table.assign($0, to: &value, slot: &fresh) }
                if value != key { wrong += 1 }
                Array(key.utf8).withUnsafeBytes { assigning.assign($0, to: &field, slot: &slot) }
                if field != key { wrong += 1 }
            }
        }
        #expect(wrong == 0)
    }
}
