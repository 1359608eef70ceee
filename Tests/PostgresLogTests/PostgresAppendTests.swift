import AuditLog
import Chronology
import Foundation
import Logging
import PostgresLog
import PostgresTestSupport
import Testing

/// What an append writes: every column must come back as it went in, the chain hashes must be
/// the canonical ones, and a command id the database holds already must still be answered (a
/// duplicate) or refused (reused), never stored twice.
@Suite("The PostgreSQL store: what an append writes")
struct PostgresAppendTests {
    static let logger = Logger(label: "itemaudit.test.postgres") { _ in SwiftLogNoOpLogHandler() }

    func fingerprint(_ text: String) -> CommandFingerprint { CommandFingerprint(sha256Of: Array(text.utf8)) }

    @Test func everyColumnComesBackAsAppendedWithTheCanonicalChain() async throws {
        let database = try TemporaryDatabase()
        let store = try PostgresEventStore.open(url: database.url, logger: Self.logger)
        defer { try? store.close() }
        // Text that a text-format COPY would have to escape, and bytes that are not UTF-8.
        let awkward = "tab\there\\back\nline\r\u{00E9}\u{1F600}"
        let payloads: [[UInt8]] = [[0, 1, 2, 0x5C, 0x09, 0x0A, 0xFF], [], Array(awkward.utf8)]
        let events = payloads.enumerated().map { index, payload in
            ProposedEvent(
                eventType: "Type\t\(index)\\", schemaVersion: UInt16(65_535 - index),
                occurredAt: Timestamp(microsecondsSinceEpoch: -1_000 + Int64(index)), payload: payload)
        }
        let first = try await store.append(contentsOf: [
            StreamAppend(
                streamID: "stream \(awkward)", expected: .noStream, commandID: "command \(awkward)",
                actor: "actor \(awkward)", events: events, commandFingerprint: fingerprint("one"))
        ])
        #expect(first.map(\.positions) == [1...3])
        let second = try await store.append(contentsOf: [
            StreamAppend(
                streamID: "plain", expected: .noStream, commandID: "c2", actor: "a", events: [events[0]])
        ])
        #expect(second.map(\.positions) == [4...4])

        var records: [EventRecord] = []
        try store.forEachRecord(from: 1, upTo: nil) { records.append($0) }
        #expect(records.count == 4)
        for (index, record) in records.prefix(3).enumerated() {
            #expect(record.position == UInt64(index + 1))
            #expect(record.streamID == "stream \(awkward)")
            #expect(record.streamVersion == UInt64(index + 1))
            #expect(record.eventType == "Type\t\(index)\\")
            #expect(record.schemaVersion == UInt16(65_535 - index))
            #expect(record.occurredAt.microsecondsSinceEpoch == -1_000 + Int64(index))
            #expect(record.actor == "actor \(awkward)")
            #expect(record.commandID == "command \(awkward)")
            #expect(record.payload == payloads[index])
            #expect(record.commandFingerprint == (index == 0 ? fingerprint("one") : nil))
        }
        #expect(records[3].commandFingerprint == nil)
        #expect(records[0].recordedAt == records[2].recordedAt)

        // The head and every row's hash are the canonical chain's.
        var chain = RecordChain()
        for record in records { chain.append(record) }
        #expect(store.headHash == chain.hex)
        let report = try store.verify()
        #expect(report.problem == nil)
        #expect(report.headHash == chain.hex)
        let stored = try database.rows("SELECT encode(chain_hash, 'hex') FROM itemaudit_events ORDER BY position")
        var again = RecordChain()
        var expected: [String] = []
        for record in records {
            again.append(record)
            expected.append(again.hex)
        }
        #expect(stored.map { $0.first ?? nil } == expected)
        let command = try await store.appendedCommand("command \(awkward)")
        #expect(command?.positions == 1...3)
        #expect(command?.streamVersion == 3)
        #expect(command?.fingerprint == fingerprint("one"))
    }

    @Test func aCommandIDTheDatabaseHoldsIsAnsweredOrRefusedWhenTheVersionCheckLetsItThrough() async throws {
        let database = try TemporaryDatabase()
        let store = try PostgresEventStore.open(url: database.url, logger: Self.logger)
        defer { try? store.close() }
        func append(_ id: String, _ print: String, stream: String = "s") -> StreamAppend {
            StreamAppend(
                streamID: stream, expected: .any, commandID: id, actor: "a",
                events: [ProposedEvent(eventType: "T", occurredAt: Timestamp(microsecondsSinceEpoch: 1), payload: [1])],
                commandFingerprint: fingerprint(print))
        }
        let original = try await store.append(contentsOf: [append("c1", "x")])
        // `.any` passes the version check: the primary key of itemaudit_commands stops the write,
        // and the group is decided again with the id looked up.
        let resent = try await store.append(contentsOf: [append("c1", "x")])
        #expect(resent.first?.wasDuplicate == true)
        #expect(resent.first?.positions == original.first?.positions)
        do {
            _ = try await store.append(contentsOf: [append("c1", "different")])
            Issue.record("a reused command id was appended")
        } catch let error as EventLogError {
            #expect(error.code == .commandIDReused)
        }
        // In a group with new commands: the new ones are written, the resent one answered.
        async let a = store.append(contentsOf: [append("c2", "y", stream: "t")])
        async let b = store.append(contentsOf: [append("c1", "x")])
        async let c = store.append(contentsOf: [append("c3", "z", stream: "u")])
        let (ra, rb, rc) = try await (a, b, c)
        #expect(rb.first?.wasDuplicate == true)
        #expect(ra.first?.wasDuplicate == false)
        #expect(rc.first?.wasDuplicate == false)
        #expect(store.lastPosition == 3)
        let counts = try database.rows(
            "SELECT (SELECT count(*) FROM itemaudit_events)::text, (SELECT count(*) FROM itemaudit_commands)::text")
        #expect(counts.first == ["3", "3"])
        #expect(try store.verify().problem == nil)
    }

    @Test func twoStoresRacingWithTheSameCommandStoreItOnce() async throws {
        let database = try TemporaryDatabase()
        let one = try PostgresEventStore.open(url: database.url, logger: Self.logger)
        let two = try PostgresEventStore.open(url: database.url, logger: Self.logger)
        defer {
            try? one.close()
            try? two.close()
        }
        let appends = (0..<200).map { index in
            StreamAppend(
                streamID: "s\(index % 7)", expected: .any, commandID: "c\(index)", actor: "a",
                events: [ProposedEvent(eventType: "T", occurredAt: Timestamp(microsecondsSinceEpoch: 1), payload: [1])],
                commandFingerprint: fingerprint("\(index)"))
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for store in [one, two] {
                for chunk in stride(from: 0, to: appends.count, by: 20) {
                    let batch = Array(appends[chunk..<chunk + 20])
                    group.addTask { for append in batch { _ = try await store.append(contentsOf: [append]) } }
                }
            }
            try await group.waitForAll()
        }
        _ = try await one.refresh()
        #expect(one.lastPosition == 200)
        let report = try one.verify()
        #expect(report.problem == nil)
        #expect(report.eventCount == 200)
    }
}
