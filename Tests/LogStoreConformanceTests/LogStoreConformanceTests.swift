import AuditLog
import Chronology
import Foundation
import Testing

/// The promises of ``AuditLog/EventStore``, checked the same way on the file log and on PostgreSQL.
@Suite("Log store conformance")
struct LogStoreConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func appendedRecordsReadBackExactly(kind: StoreKind) async throws {
        let subject = try StoreUnderTest(kind)
        let store = subject.store
        let results = try await store.append(contentsOf: [
            StreamAppend(
                streamID: "batch-1", expected: .noStream, commandID: "cmd-a", actor: "inspector-7",
                events: [event("one"), event("two")], commandFingerprint: fingerprint("a")),
            StreamAppend(
                streamID: "batch-2", expected: .noStream, commandID: "cmd-b", actor: "steward",
                events: [event("three", type: "Other")]),
        ])
        #expect(results.map(\.positions) == [1...2, 3...3])
        #expect(results.map(\.streamVersion) == [2, 1])
        #expect(results.allSatisfy { !$0.wasDuplicate })
        #expect(store.lastPosition == 3)
        let records = try store.readRecords()
        #expect(records.map(\.position) == [1, 2, 3])
        #expect(records.map(\.streamID) == ["batch-1", "batch-1", "batch-2"])
        #expect(records.map(\.streamVersion) == [1, 2, 1])
        #expect(records.map { String(decoding: $0.payload, as: UTF8.self) } == ["one", "two", "three"])
        #expect(records.map(\.actor) == ["inspector-7", "inspector-7", "steward"])
        #expect(records.map(\.commandID) == ["cmd-a", "cmd-a", "cmd-b"])
        #expect(records[0].commandFingerprint == fingerprint("a"))
        #expect(records[1].commandFingerprint == nil)
        #expect(records.allSatisfy { $0.recordedAt == StoreUnderTest.start })

        var views: [EventRecord] = []
        try store.forEachRecordView(from: 2, upTo: 3) { views.append($0.record) }
        #expect(views.map(\.position) == [2, 3])
        #expect(views.map(\.commandID) == ["cmd-a", "cmd-b"])
        #expect(views.map(\.payload) == records[1...].map(\.payload))

        let state = try await store.streamState(of: "batch-1")
        #expect(state.version == 2)
        #expect(state.reachesUpTo >= 2)
        #expect(try await store.streamState(of: "batch-9").version == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func aConflictWritesNothingOfItsBatch(kind: StoreKind) async throws {
        let subject = try StoreUnderTest(kind)
        let store = subject.store
        _ = try await store.append(
            to: "batch-1", expected: .noStream, commandID: "c1", actor: "a", events: [event("x")])
        await #expect(throws: EventLogError.self) {
            _ = try await store.append(
                to: "batch-1", expected: .noStream, commandID: "c2", actor: "a", events: [event("y")])
        }
        do {
            _ = try await store.append(contentsOf: [
                StreamAppend(
                    streamID: "batch-2", expected: .noStream, commandID: "c3", actor: "a", events: [event("z")]),
                StreamAppend(
                    streamID: "batch-1", expected: .exactly(5), commandID: "c4", actor: "a", events: [event("w")]),
            ])
            Issue.record("a batch with a conflicting stream append was written")
        } catch let error as EventLogError {
            #expect(error.code == .versionConflict)
        }
        #expect(store.lastPosition == 1)
        #expect(try await store.streamState(of: "batch-2").version == 0)
        #expect(try await store.appendedCommand("c3") == nil)
        let next = try await store.append(
            to: "batch-1", expected: .exactly(1), commandID: "c5", actor: "a", events: [event("v")])
        #expect(next.positions == 2...2)
        #expect(next.streamVersion == 2)
    }

    @Test(arguments: StoreKind.allCases)
    func aResentCommandIsAnsweredAndAReusedIdRefused(kind: StoreKind) async throws {
        let subject = try StoreUnderTest(kind)
        let store = subject.store
        let first = try await store.append(
            to: "batch-1", expected: .noStream, commandID: "cmd-1", actor: "a", events: [event("x"), event("y")],
            commandFingerprint: fingerprint("allocate"))
        let again = try await store.append(
            to: "batch-1", expected: .noStream, commandID: "cmd-1", actor: "a", events: [event("x"), event("y")],
            commandFingerprint: fingerprint("allocate"))
        #expect(again.wasDuplicate)
        #expect(again.positions == first.positions)
        #expect(again.streamVersion == 2)
        do {
            _ = try await store.append(
                to: "batch-2", expected: .any, commandID: "cmd-1", actor: "a", events: [event("z")],
                commandFingerprint: fingerprint("submit"))
            Issue.record("a command id reused for another command was accepted")
        } catch let error as EventLogError {
            #expect(error.code == .commandIDReused)
        }
        #expect(store.lastPosition == 2)
        let stored = try #require(try await store.appendedCommand("cmd-1"))
        #expect(stored.positions == 1...2)
        #expect(stored.streamID == "batch-1")
        #expect(stored.fingerprint == fingerprint("allocate"))
    }

    @Test(arguments: StoreKind.allCases)
    func concurrentAppendsGetGaplessPositionsAndOneWinnerPerVersion(kind: StoreKind) async throws {
        let subject = try StoreUnderTest(kind)
        let store = subject.store
        // 40 writers race for versions 1...4 of one stream (each expects the version it read
        // last) while 40 others append to streams of their own.
        let winners = try await withThrowingTaskGroup(of: Int.self) { group in
            for writer in 0..<40 {
                group.addTask {
                    var won = 0
                    for version in 0..<4 {
                        do {
                            _ = try await store.append(
                                to: "shared", expected: .exactly(UInt64(version)),
                                commandID: "race-\(writer)-\(version)",
                                actor: "w\(writer)", events: [event("\(writer)")])
                            won += 1
                        } catch let error as EventLogError where error.code == .versionConflict {}
                    }
                    return won
                }
                group.addTask {
                    _ = try await store.append(
                        to: "own-\(writer)", expected: .noStream, commandID: "own-\(writer)", actor: "w\(writer)",
                        events: [event("a"), event("b")])
                    return 0
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(winners == 4)
        let records = try store.readRecords()
        #expect(records.map(\.position) == Array(1...UInt64(84)))
        #expect(records.filter { $0.streamID == "shared" }.map(\.streamVersion) == [1, 2, 3, 4])
        #expect(try subject.verify().problem == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func asOfAndStreamReads(kind: StoreKind) async throws {
        let subject = try StoreUnderTest(kind)
        let store = subject.store
        var times: [Timestamp] = []
        for index in 0..<6 {
            subject.clock.advance(microseconds: 1_000_000)
            times.append(subject.clock.now())
            _ = try await store.append(
                to: "batch-\(index % 2)", expected: .any, commandID: "c\(index)", actor: "a",
                events: [event("e\(index)")])
        }
        #expect(try store.lastPosition(asOfRecordedAt: StoreUnderTest.start) == 0)
        #expect(try store.lastPosition(asOfRecordedAt: times[2]) == 3)
        #expect(try store.lastPosition(asOfRecordedAt: times[2].adding(microseconds: 999_999)) == 3)
        #expect(try store.lastPosition(asOfRecordedAt: times[5].adding(microseconds: 60_000_000)) == 6)
        #expect(store.lastRecordedAt == times[5])
        var odd: [EventRecord] = []
        try store.forEachRecord(inStream: "batch-1", fromVersion: 2) { odd.append($0) }
        #expect(odd.map(\.position) == [4, 6])
        #expect(odd.map(\.streamVersion) == [2, 3])
        var upTo: [UInt64] = []
        try store.forEachRecord(from: 2, upTo: 4) { upTo.append($0.position) }
        #expect(upTo == [2, 3, 4])
    }

    @Test(arguments: StoreKind.allCases)
    func aReopenedStoreHasTheSameHeadAndGoesOn(kind: StoreKind) async throws {
        let subject = try StoreUnderTest(kind)
        _ = try await subject.store.append(
            to: "s", expected: .noStream, commandID: "c1", actor: "a", events: [event("x"), event("y")])
        let head = subject.store.headHash
        try subject.reopen()
        #expect(subject.store.lastPosition == 2)
        #expect(subject.store.headHash == head)
        let next = try await subject.store.append(
            to: "s", expected: .exactly(2), commandID: "c2", actor: "a", events: [event("z")])
        #expect(next.positions == 3...3)
        let duplicate = try await subject.store.append(
            to: "s", expected: .noStream, commandID: "c1", actor: "a", events: [event("x"), event("y")])
        #expect(duplicate.wasDuplicate)
    }

    @Test(arguments: StoreKind.allCases)
    func verifyPassesACleanLogAndCatchesAChangedEvent(kind: StoreKind) async throws {
        let subject = try StoreUnderTest(kind)
        for index in 0..<20 {
            _ = try await subject.store.append(
                to: "batch-\(index % 3)", expected: .any, commandID: "c\(index)", actor: "a",
                events: [event(String(repeating: "payload \(index) ", count: 40))])
        }
        let clean = try subject.verify()
        #expect(clean.problem == nil)
        #expect(clean.lastPosition == 20)
        #expect(clean.headHash == subject.store.headHash)
        try subject.tamper(position: 11)
        let report = try subject.verify()
        let problem = try #require(report.problem, "a changed event passed verify")
        #expect(report.lastPosition < 20)
        if kind == .postgres {
            #expect(problem.firstPosition == 11)
            #expect(report.lastPosition == 10)
        }
    }

    /// The canonical chain: the same history gives the same head hash in every store.
    @Test func theSameHistoryHasTheSameHeadInBothStores() async throws {
        var heads: [String] = []
        for kind in StoreKind.allCases {
            let subject = try StoreUnderTest(kind)
            for index in 0..<12 {
                subject.clock.advance(microseconds: 250_000)
                _ = try await subject.store.append(contentsOf: [
                    StreamAppend(
                        streamID: "batch-\(index % 4)", expected: .any, commandID: "cmd-\(index)", actor: "inspector",
                        events: [event("first \(index)"), event("second \(index)")],
                        commandFingerprint: fingerprint("\(index)"))
                ])
            }
            heads.append(subject.store.headHash)
            #expect(try subject.verify().headHash == subject.store.headHash)
        }
        #expect(heads.count == 2)
        #expect(heads[0] == heads[1], "file \(heads[0]) vs postgres \(heads[1])")
        #expect(heads[0] != String(repeating: "0", count: 64))
    }
}
