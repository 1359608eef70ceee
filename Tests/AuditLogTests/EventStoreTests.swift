import Chronology
import Foundation
import Testing

@testable import AuditLog

@Suite("EventLog as an EventStore")
struct EventStoreTests {
    @Test("the store answers used command ids, stream states and stream reads")
    func answers() async throws {
        let directory = try TemporaryDirectory()
        let store: any EventStore = try openLog(directory.url)
        defer { try? store.close() }
        let fingerprint = CommandFingerprint(sha256Of: Array("allocate".utf8))
        _ = try await store.append(
            to: "batch-1", expected: .noStream, commandID: "cmd-1", actor: "ann",
            events: [event("A", "1"), event("B", "2")], commandFingerprint: fingerprint)
        _ = try await store.append(
            to: "batch-2", expected: .noStream, commandID: "cmd-2", actor: "ann", events: [event("A", "3")])
        _ = try await store.append(
            to: "batch-1", expected: .exactly(2), commandID: "cmd-3", actor: "bob", events: [event("C", "4")])

        let used = try #require(try await store.appendedCommand("cmd-1"))
        #expect(
            used == AppendedCommand(streamID: "batch-1", positions: 1...2, streamVersion: 2, fingerprint: fingerprint))
        #expect(try used.answer(to: fingerprint, commandID: "cmd-1").wasDuplicate)
        #expect(throws: EventLogError.self) {
            try used.answer(to: CommandFingerprint(sha256Of: [1]), commandID: "cmd-1")
        }
        #expect(try await store.appendedCommand("cmd-9") == nil)

        let state = try await store.streamState(of: "batch-1")
        #expect(state.version == 3 && state.reachesUpTo >= 4)
        #expect(try await store.streamState(of: "none") == StreamState(version: 0, reachesUpTo: 0))
        #expect(try await store.streamState(of: "batch-2").version == 1)

        var stream: [UInt64] = []
        try store.forEachRecord(inStream: "batch-1", fromVersion: 2) { stream.append($0.position) }
        #expect(stream == [2, 4])
        #expect(try store.readRecords(from: 2, upTo: 3).map(\.position) == [2, 3])
        #expect(try await store.refresh() == 4)
        #expect(store.location == directory.url.path)

        // Repeating the used id with the same fingerprint is a duplicate; with another, refused.
        let again = try await store.append(
            to: "batch-1", expected: .exactly(0), commandID: "cmd-1", actor: "ann", events: [event("A", "1")],
            commandFingerprint: fingerprint)
        #expect(again == AppendResult(positions: 1...2, streamVersion: 2, wasDuplicate: true))
        await #expect(throws: EventLogError.self) {
            _ = try await store.append(
                to: "batch-1", expected: .any, commandID: "cmd-1", actor: "ann", events: [event("A", "x")],
                commandFingerprint: CommandFingerprint(sha256Of: [2]))
        }
    }

    @Test("stream states survive a checkpoint (answered from the on-disk runs)")
    func afterCheckpoint() async throws {
        let directory = try TemporaryDirectory()
        var log = try openLog(directory.url)
        for index in 0..<40 {
            _ = try await log.append(
                to: "s-\(index % 4)", expected: .any, commandID: "c-\(index)", actor: "a",
                events: [event("E", String(repeating: "x", count: 300))])
        }
        try log.close()
        log = try openLog(directory.url)
        defer { try? log.close() }
        let state = try log.streamState(of: "s-1")
        #expect(state.version == 10)
        #expect(state.reachesUpTo == 38)
        #expect(try log.appendedCommand("c-5")?.streamID == "s-1")
    }

    @Test(
        "a copy keeps positions, times, actors, command ids and the head, whatever the chunk size",
        arguments: [1, 2, 5, 1000])
    func copy(chunk: Int) async throws {
        let source = try TemporaryDirectory()
        let clock = ManualClock(Timestamp(microsecondsSinceEpoch: 1_714_550_400_000_000))
        let log = try openLog(source.url, clock: clock)
        for (index, append) in LogFormatTests.history().enumerated() {
            if index % 4 == 0 { clock.advance(microseconds: 1_000) }
            _ = try await log.append(contentsOf: [append])
        }
        let destination = try TemporaryDirectory()
        let copy = try openLog(destination.url, clock: SteppingClock())
        let report = try await EventStoreCopy.copy(from: log, to: copy, chunk: chunk)
        #expect(report.headHash == log.headHash && copy.headHash == log.headHash)
        #expect(try copy.allRecords() == log.allRecords())
        #expect(try copy.allRecords().map(\.commandFingerprint) == log.allRecords().map(\.commandFingerprint))
        // The copy answers the source's command ids as used, with the source's positions.
        let again = try await copy.append(contentsOf: [LogFormatTests.history()[7]])
        #expect(again[0].wasDuplicate)
        try copy.close()
        #expect(try EventLog.verify(directory: destination.url).headHash == log.headHash)
        // Into a store that is not empty: refused, nothing written.
        let refused = try openLog(destination.url)
        await #expect(throws: EventLogError.self) { _ = try await EventStoreCopy.copy(from: log, to: refused) }
        try refused.close()
        try log.close()
    }
}
