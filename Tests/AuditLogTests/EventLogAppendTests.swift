import Chronology
import Foundation
import Testing

@testable import AuditLog

@Suite("EventLog appends")
struct EventLogAppendTests {
    @Test("events round-trip with every envelope field, also after reopening")
    func roundTrip() async throws {
        let directory = try TemporaryDirectory()
        let clock = ManualClock(Timestamp(microsecondsSinceEpoch: 1_714_550_400_000_000))
        var log = try openLog(directory.url, clock: clock)
        let first = try await log.append(
            to: "batch-1", expected: .noStream, commandID: "cmd-1", actor: "inspector-7",
            events: [event("BatchAllocated", "{\"n\":3}", at: 1_714_550_000_000_123), event("ProductCollected", "")])
        #expect(first.positions == 1...2)
        #expect(first.streamVersion == 2)
        #expect(!first.wasDuplicate)
        clock.advance(microseconds: 5_000_000)
        let second = try await log.append(
            to: "batch-2", expected: .exactly(0), commandID: "cmd-2", actor: "steward", events: [event("Other", "ü")])
        #expect(second.positions == 3...3)
        try log.close()

        log = try openLog(directory.url, clock: clock)
        let records = try log.allRecords()
        #expect(records.count == 3)
        #expect(
            records[0]
                == EventRecord(
                    position: 1, streamID: "batch-1", streamVersion: 1, eventType: "BatchAllocated", schemaVersion: 1,
                    recordedAt: Timestamp(microsecondsSinceEpoch: 1_714_550_400_000_000),
                    occurredAt: Timestamp(microsecondsSinceEpoch: 1_714_550_000_000_123), actor: "inspector-7",
                    commandID: "cmd-1", payload: Array("{\"n\":3}".utf8)))
        #expect(records[1].payload.isEmpty && records[1].streamVersion == 2)
        #expect(records[2].recordedAt == Timestamp(microsecondsSinceEpoch: 1_714_550_405_000_000))
        #expect(String(decoding: records[2].payload, as: UTF8.self) == "ü")
        #expect(log.streamVersion(of: "batch-1") == 2)
        #expect(log.streamVersion(of: "nope") == 0)
        #expect(log.lastPosition == 3)
        #expect(log.headHash.count == 64)
        var viewed: [EventRecord] = []
        try log.forEachRecordView { view in
            #expect(view.hasEventType(view.eventType) && !view.hasEventType("Nope"))
            viewed.append(view.record)
        }
        #expect(viewed == records)
        var streamed: [EventRecord] = []
        for try await record in log.records(from: 1) { streamed.append(record) }
        #expect(streamed == records)
        try log.close()
    }

    @Test("a version conflict is a typed error and writes nothing")
    func versionConflict() async throws {
        let directory = try TemporaryDirectory()
        let log = try openLog(directory.url)
        defer { try? log.close() }
        _ = try await log.append(to: "s", expected: .noStream, commandID: "a", actor: "x", events: [event("E", "1")])
        await #expect(throws: EventLogError.self) {
            try await log.append(to: "s", expected: .noStream, commandID: "b", actor: "x", events: [event("E", "2")])
        }
        do {
            _ = try await log.append(
                to: "s", expected: .exactly(5), commandID: "c", actor: "x", events: [event("E", "3")])
            Issue.record("expected a conflict")
        } catch let error as EventLogError {
            #expect(error.code == .versionConflict)
            #expect(
                error.context["actual"] == "1" && error.context["expected"] == "5" && error.context["stream"] == "s")
        }
        #expect(log.lastPosition == 1)
        // A batch with one conflicting entry writes none of its entries.
        await #expect(throws: EventLogError.self) {
            try await log.append(contentsOf: [
                StreamAppend(streamID: "t", expected: .noStream, commandID: "d", actor: "x", events: [event("E", "4")]),
                StreamAppend(streamID: "s", expected: .noStream, commandID: "e", actor: "x", events: [event("E", "5")]),
            ])
        }
        #expect(log.lastPosition == 1)
        #expect(log.streamVersion(of: "t") == 0)
        let ok = try await log.append(
            to: "s", expected: .exactly(1), commandID: "f", actor: "x", events: [event("E", "6")])
        #expect(ok.positions == 2...2 && ok.streamVersion == 2)
    }

    @Test("a command id seen before returns the original positions and writes nothing, also after a restart")
    func idempotency() async throws {
        let directory = try TemporaryDirectory()
        var log = try openLog(directory.url)
        let original = try await log.append(
            to: "task-9", expected: .any, commandID: "submit-42", actor: "i",
            events: [event("A", "1"), event("B", "2")])
        let again = try await log.append(
            to: "task-9", expected: .noStream, commandID: "submit-42", actor: "i",
            events: [event("A", "1"), event("B", "2")])
        #expect(again == AppendResult(positions: original.positions, streamVersion: 2, wasDuplicate: true))
        #expect(log.lastPosition == 2)
        try log.close()
        log = try openLog(directory.url)
        let afterRestart = try await log.append(
            to: "task-9", expected: .exactly(0), commandID: "submit-42", actor: "i", events: [event("A", "1")])
        #expect(afterRestart.wasDuplicate && afterRestart.positions == 1...2)
        #expect(log.lastPosition == 2)
        try log.close()
    }

    @Test("many concurrent appenders: gapless positions, per-stream order, nothing lost or doubled")
    func concurrentAppenders() async throws {
        let directory = try TemporaryDirectory()
        let log = try openLog(directory.url)
        let appenders = 32
        let perAppender = 20
        try await withThrowingTaskGroup(of: Void.self) { group in
            for appender in 0..<appenders {
                group.addTask {
                    // Half the appenders share one stream with `.any`; the others own a stream each.
                    let stream = appender % 2 == 0 ? "shared" : "own-\(appender)"
                    for step in 0..<perAppender {
                        _ = try await log.append(
                            to: stream, expected: .any, commandID: "c-\(appender)-\(step)", actor: "a\(appender)",
                            events: [event("E", "\(appender):\(step)")])
                    }
                }
            }
            try await group.waitForAll()
        }
        try log.close()
        let reopened = try openLog(directory.url)
        defer { try? reopened.close() }
        let records = try reopened.allRecords()
        #expect(records.count == appenders * perAppender)
        #expect(records.map(\.position) == Array(1...UInt64(appenders * perAppender)))
        #expect(Set(records.map(\.commandID)).count == records.count)
        var versions: [String: UInt64] = [:]
        var lastStep: [String: Int] = [:]
        for record in records {
            versions[record.streamID, default: 0] += 1
            #expect(record.streamVersion == versions[record.streamID])
            let parts = String(decoding: record.payload, as: UTF8.self).split(separator: ":")
            let step = Int(parts[1]) ?? -1
            #expect(step > lastStep[String(parts[0]), default: -1])
            lastStep[String(parts[0])] = step
        }
        #expect(reopened.streamVersion(of: "shared") == UInt64(appenders / 2 * perAppender))
    }

    @Test("a second writer on the same directory gets a clear error; a read-only open is allowed")
    func writerLock() async throws {
        let directory = try TemporaryDirectory()
        let log = try openLog(directory.url)
        defer { try? log.close() }
        _ = try await log.append(to: "s", expected: .any, commandID: "a", actor: "x", events: [event("E", "1")])
        do {
            _ = try openLog(directory.url)
            Issue.record("a second writer opened")
        } catch let error as EventLogError {
            #expect(error.code == .lockHeld)
            #expect(error.message.contains("another process"))
        }
        var readOnly = smallConfiguration
        readOnly.readOnly = true
        let reader = try openLog(directory.url, readOnly)
        #expect(try reader.allRecords().count == 1)
        await #expect(throws: EventLogError.self) {
            try await reader.append(to: "s", expected: .any, commandID: "b", actor: "x", events: [event("E", "2")])
        }
    }
}
