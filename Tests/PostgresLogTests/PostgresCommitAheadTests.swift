import AuditLog
import Foundation
import Logging
import PostgresLog
import PostgresTestSupport
import Testing

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

/// Groups committed ahead: a group planned on top of the one being written, inserted while that
/// one is still being inserted, and committed right after it (or given back).
@Suite("The PostgreSQL store: groups committed ahead")
struct PostgresCommitAheadTests {
    static let logger = Logger(label: "itemaudit.test.postgres") { _ in SwiftLogNoOpLogHandler() }

    /// A batch of `size` one-event appends over 17 streams, with command ids `prefix-0…`.
    static func batch(_ prefix: String, size: Int = 600) -> [StreamAppend] {
        (0..<size).map { index in
            StreamAppend(
                streamID: "stream-\((prefix.utf8.reduce(0) { $0 &+ Int($1) } &+ index) % 17)", expected: .any,
                commandID: "\(prefix)-\(index)", actor: "bench",
                events: [
                    ProposedEvent(
                        eventType: "Noted", occurredAt: Timestamp(microsecondsSinceEpoch: Int64(index)),
                        payload: Array("\(prefix) \(index)".utf8))
                ])
        }
    }

    /// Appends `rounds` batches from each of `submitters` tasks, each awaiting its batch before the
    /// next (so groups overlap), and returns every batch's command-id prefix with its results.
    static func submit(
        to store: PostgresEventStore, submitters: Int, rounds: Int, name: String
    ) async throws -> [(String, [AppendResult])] {
        try await withThrowingTaskGroup(of: [(String, [AppendResult])].self) { group in
            for submitter in 0..<submitters {
                group.addTask {
                    var results: [(String, [AppendResult])] = []
                    for round in 0..<rounds {
                        let prefix = "\(name)-\(submitter)-\(round)"
                        results.append((prefix, try await store.append(batch: batch(prefix))))
                    }
                    return results
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
    }

    /// What every log must show after concurrent appends: positions 1…n once each, every stream's
    /// versions 1…k in position order, each answer naming the events stored, and a clean chain.
    static func expectWhole(_ store: PostgresEventStore, _ answers: [(String, [AppendResult])]) throws {
        let records = try store.readRecords()
        #expect(records.map(\.position) == Array(1...UInt64(records.count)))
        var versions: [String: UInt64] = [:]
        for record in records {
            versions[record.streamID, default: 0] += 1
            #expect(record.streamVersion == versions[record.streamID])
        }
        let byCommand = Dictionary(uniqueKeysWithValues: records.map { ($0.commandID, $0) })
        #expect(byCommand.count == records.count)
        for (prefix, results) in answers {
            for (index, result) in results.enumerated() {
                let stored = byCommand["\(prefix)-\(index)"]
                #expect(stored?.position == result.positions.lowerBound)
                #expect(stored?.streamVersion == result.streamVersion)
            }
        }
        #expect(try store.verify().problem == nil)
    }

    @Test func groupsCommittedAheadKeepPositionsGaplessAndInCommitOrder() async throws {
        let database = try TemporaryDatabase()
        // At most one batch per group, so that four submitters keep several groups queued.
        let store = try PostgresEventStore.open(
            url: database.url, options: .init(maxGroupEvents: 1_000), logger: Self.logger)
        defer { try? store.close() }
        let answers = try await Self.submit(to: store, submitters: 4, rounds: 10, name: "one")
        #expect(answers.count == 40)
        // Without groups committed ahead, this test would not test them.
        #expect(store.groupsCommittedAhead > 0)
        _ = try await store.refresh()
        #expect(store.lastPosition == 40 * 600)
        try Self.expectWhole(store, answers)
        // Another server reading the log finds the same head.
        let other = try PostgresEventStore.open(url: database.url, logger: Self.logger)
        defer { try? other.close() }
        #expect(other.headHash == store.headHash)
    }

    @Test func aConflictingBatchFailsAloneAmongGroupsCommittedAhead() async throws {
        let database = try TemporaryDatabase()
        // One batch per group: the 13 batches sent at once make 13 groups, each built on the one before.
        let store = try PostgresEventStore.open(
            url: database.url, options: .init(maxGroupEvents: 1_000), logger: Self.logger)
        defer { try? store.close() }
        // The seventh cannot apply (a stream version the stream never reaches): it alone fails,
        // with nothing of it stored, and the groups around it go on.
        var conflicting = Self.batch("bad")
        conflicting[300].expected = .exactly(1_000_000)
        let outcomes = await withTaskGroup(of: (String, Result<[AppendResult], any Error>).self) { group in
            for index in 0..<13 {
                let prefix = index == 6 ? "bad" : "flow-\(index)"
                let batch = index == 6 ? conflicting : Self.batch(prefix)
                group.addTask {
                    do {
                        return (prefix, .success(try await store.append(batch: batch)))
                    } catch {
                        return (prefix, .failure(error))
                    }
                }
            }
            return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        #expect((outcomes["bad"]?.failure as? EventLogError)?.code == .versionConflict)
        let answers = outcomes.compactMap { prefix, outcome in (try? outcome.get()).map { (prefix, $0) } }
        #expect(answers.count == 12)
        #expect(store.groupsCommittedAhead > 0)
        _ = try await store.refresh()
        #expect(store.lastPosition == 12 * 600)
        try Self.expectWhole(store, answers)
        #expect(try store.readRecords().allSatisfy { !$0.commandID.hasPrefix("bad-") })
    }

    /// A group whose write the database refuses after it was planned (a command another server
    /// stored, which the first plan does not look up) is planned again; the group built on its
    /// first plan must give its rows back, or they would sit after positions never written.
    @Test func aGroupBuiltOnARefusedWriteGivesItsRowsBack() async throws {
        let database = try TemporaryDatabase()
        let other = try PostgresEventStore.open(url: database.url, logger: Self.logger)
        defer { try? other.close() }
        let stored = try await other.append(batch: Self.batch("resent"))
        let store = try PostgresEventStore.open(
            url: database.url, options: .init(maxGroupEvents: 1_000), logger: Self.logger)
        defer { try? store.close() }
        let outcomes = try await withThrowingTaskGroup(of: (String, [AppendResult]).self) { group in
            for index in 0..<9 {
                let prefix = index == 2 ? "resent" : "new-\(index)"
                group.addTask { (prefix, try await store.append(batch: Self.batch(prefix))) }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        let resent = try #require(outcomes["resent"])
        #expect(resent.allSatisfy { $0.wasDuplicate })
        #expect(resent.map(\.positions) == stored.map(\.positions))
        _ = try await store.refresh()
        #expect(store.lastPosition == 9 * 600)
        try Self.expectWhole(store, outcomes.filter { $0.key != "resent" }.map { ($0.key, $0.value) })
    }

    /// Two servers, each committing groups ahead, racing for the same streams and resending each
    /// other's commands: each stops committing ahead when it meets the other (a group of one
    /// holding rows while it waits for the head could deadlock with the other's), and no append
    /// is lost, doubled or left hanging.
    @Test func twoServersCommittingAheadStoreEveryCommandOnce() async throws {
        let database = try TemporaryDatabase()
        let left = try PostgresEventStore.open(url: database.url, logger: Self.logger)
        let right = try PostgresEventStore.open(url: database.url, logger: Self.logger)
        defer {
            try? left.close()
            try? right.close()
        }
        async let fromLeft = Self.submit(to: left, submitters: 3, rounds: 6, name: "shared")
        async let fromRight = Self.submit(to: right, submitters: 3, rounds: 6, name: "shared")
        let (leftAnswers, rightAnswers) = try await (fromLeft, fromRight)
        // The same 18 batches went to both: each command is stored once, the other server's
        // answer is a duplicate naming the same positions.
        let leftByPrefix = Dictionary(uniqueKeysWithValues: leftAnswers)
        for (prefix, results) in rightAnswers {
            let other = try #require(leftByPrefix[prefix])
            #expect(zip(results, other).allSatisfy { $0.positions == $1.positions })
            #expect(zip(results, other).allSatisfy { $0.wasDuplicate != $1.wasDuplicate })
        }
        _ = try await left.refresh()
        _ = try await right.refresh()
        #expect(left.lastPosition == 18 * 600)
        try Self.expectWhole(left, leftAnswers)
        #expect(right.headHash == left.headHash)
    }
}
