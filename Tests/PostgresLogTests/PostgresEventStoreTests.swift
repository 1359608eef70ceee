import AuditLog
import Chronology
import Foundation
import Logging
import PostgresLog
import PostgresTestSupport
import Testing

@Suite("The PostgreSQL store: what only a database does")
struct PostgresEventStoreTests {
    static let logger = Logger(label: "itemaudit.test.postgres") { _ in SwiftLogNoOpLogHandler() }

    func event(_ text: String) -> ProposedEvent {
        ProposedEvent(eventType: "Noted", occurredAt: Timestamp(microsecondsSinceEpoch: 0), payload: Array(text.utf8))
    }

    /// Deletes events behind the log's back, as only the table's owner can (past its trigger).
    func deleteEvents(in database: TemporaryDatabase, where condition: String) throws {
        try database.execute(
            """
            ALTER TABLE itemaudit_events DISABLE TRIGGER USER;
            DELETE FROM itemaudit_events WHERE \(condition);
            ALTER TABLE itemaudit_events ENABLE TRIGGER USER;
            """)
    }

    @Test func theSchemaIsMigratedOnceAndItsVersionRecorded() throws {
        let database = try TemporaryDatabase()
        let first = try PostgresEventStore.open(url: database.url, logger: Self.logger)
        #expect(first.schema.from == 0)
        #expect(first.schema.to >= 1)
        try first.close()
        let second = try PostgresEventStore.open(url: database.url, logger: Self.logger)
        #expect(second.schema.from == first.schema.to)
        try second.close()
        let versions = try database.rows("SELECT version::text FROM itemaudit_schema_migrations ORDER BY version")
        #expect(versions.map { $0.first ?? nil } == (1...first.schema.to).map { String($0) })
    }

    /// The collation of each identifier column, as `table.column=collation`.
    func identifierCollations(in database: TemporaryDatabase) throws -> [String] {
        try database.rows(
            """
            SELECT table_name || '.' || column_name || '=' || coalesce(collation_name, 'default')
            FROM information_schema.columns
            WHERE (table_name, column_name) IN (('itemaudit_events', 'stream_id'), ('itemaudit_commands', 'command_id'),
                ('itemaudit_commands', 'stream_id'), ('itemaudit_blobs', 'sha256'))
            ORDER BY 1
            """
        ).map { $0.first.flatMap { $0 } ?? "" }
    }

    @Test("a version-1 database is migrated to identifiers in byte order, keeping its events and answers")
    func identifiersMigrateToByteOrder() async throws {
        let database = try TemporaryDatabase()
        let store = try PostgresEventStore.open(url: database.url, logger: Self.logger)
        for index in 0..<20 {
            _ = try await store.append(
                to: "stream-\(index % 3)", expected: .any, commandID: "command-\(index)", actor: "a",
                events: [event("\(index)")])
        }
        let before = try store.verify(progress: nil)
        try store.close()
        let migrated = [
            "itemaudit_blobs.sha256=C", "itemaudit_commands.command_id=C", "itemaudit_commands.stream_id=C",
            "itemaudit_events.stream_id=C",
        ]
        #expect(try identifierCollations(in: database) == migrated)
        // Back to what schema version 1 made: the database's own collation.
        try database.execute(
            """
            ALTER TABLE itemaudit_events ALTER COLUMN stream_id TYPE text COLLATE "default";
            ALTER TABLE itemaudit_commands ALTER COLUMN command_id TYPE text COLLATE "default",
                ALTER COLUMN stream_id TYPE text COLLATE "default";
            ALTER TABLE itemaudit_blobs ALTER COLUMN sha256 TYPE text COLLATE "default";
            DELETE FROM itemaudit_schema_migrations WHERE version >= 2;
            """)
        #expect(try identifierCollations(in: database).allSatisfy { $0.hasSuffix("=default") })

        let reopened = try PostgresEventStore.open(url: database.url, logger: Self.logger)
        defer { try? reopened.close() }
        #expect(reopened.schema.from == 1 && reopened.schema.to >= 2)
        #expect(try identifierCollations(in: database) == migrated)
        let after = try reopened.verify(progress: nil)
        #expect(after.problem == nil && after.headHash == before.headHash && after.lastPosition == 20)
        // The rebuilt indexes answer: a resent command is a duplicate, a stale version conflicts.
        let resent = try await reopened.append(
            to: "stream-1", expected: .any, commandID: "command-4", actor: "a", events: [event("4")])
        #expect(resent.wasDuplicate && resent.positions == 5...5)
        await #expect(throws: EventLogError.self) {
            _ = try await reopened.append(
                to: "stream-2", expected: .exactly(1), commandID: "late", actor: "a", events: [event("late")])
        }
    }

    /// A server verifies the shared log while other servers append to it: the head row and the
    /// events it checks must come from one snapshot, or events committed during the check look
    /// like rows past the head (damage that is not there).
    @Test func verifyWhileOthersAppendReportsNoDamage() async throws {
        let database = try TemporaryDatabase()
        let store = try PostgresEventStore.open(
            url: database.url, options: .init(readPageSize: 50), logger: Self.logger)
        defer { try? store.close() }
        for index in 0..<300 {
            _ = try await store.append(
                to: "s\(index % 7)", expected: .any, commandID: "seed-\(index)", actor: "a", events: [event("x")])
        }
        let appending = Task {
            var appended = 0
            while !Task.isCancelled {
                _ = try await store.append(
                    to: "busy-\(appended % 5)", expected: .any, commandID: "busy-\(appended)", actor: "a",
                    events: [event("y")])
                appended += 1
            }
            return appended
        }
        defer { appending.cancel() }
        for _ in 0..<6 {
            let report = try await Task.detached { try store.verify(progress: nil) }.value
            #expect(report.problem == nil, "\(String(describing: report.problem))")
            #expect(report.lastPosition >= 300)
        }
        appending.cancel()
        #expect(try await appending.value > 0, "nothing was appended while verifying: the test proves little")
    }

    @Test func aSchemaNewerThanTheBinaryIsRefused() throws {
        let database = try TemporaryDatabase()
        try PostgresEventStore.open(url: database.url, logger: Self.logger).close()
        try database.execute("INSERT INTO itemaudit_schema_migrations (version, name) VALUES (9999, '9999_future.sql')")
        do {
            _ = try PostgresEventStore.open(url: database.url, logger: Self.logger)
            Issue.record("a newer schema was opened")
        } catch let error as PostgresLogError {
            #expect(error.code == .schemaTooNew)
            #expect(error.message.contains("9999"))
            #expect(error.message.contains("upgrade itemaudit"))
        }
    }

    @Test func anUnreachableDatabaseIsNamedWithoutItsPassword() throws {
        let url = try PostgresStoreURL("postgres://audit:hunter2@/nowhere?host=/nonexistent-dir", environment: [:])
        do {
            _ = try PostgresEventStore.open(url: url, options: .init(timeoutMilliseconds: 2_000), logger: Self.logger)
            Issue.record("opened a database that does not exist")
        } catch let error as PostgresLogError {
            #expect(error.code == .unreachable)
            #expect(error.message.contains("postgres://audit@/nowhere?host=/nonexistent-dir"))
            #expect(!error.message.contains("hunter2"))
        }
    }

    @Test func theEventTableRefusesUpdatesAndDeletes() async throws {
        let database = try TemporaryDatabase()
        let store = try PostgresEventStore.open(url: database.url, logger: Self.logger)
        defer { try? store.close() }
        _ = try await store.append(to: "s", expected: .noStream, commandID: "c", actor: "a", events: [event("x")])
        #expect(throws: PostgresLogError.self) {
            try database.execute("UPDATE itemaudit_events SET payload = '\\x00' WHERE position = 1")
        }
        #expect(throws: PostgresLogError.self) { try database.execute("DELETE FROM itemaudit_events") }
        #expect(throws: PostgresLogError.self) { try database.execute("TRUNCATE itemaudit_events") }
        #expect(try store.verify().problem == nil)
    }

    @Test func aDeletedEventIsAGapVerifyNamesAndReadsRefuse() async throws {
        let database = try TemporaryDatabase()
        let store = try PostgresEventStore.open(url: database.url, logger: Self.logger)
        defer { try? store.close() }
        for index in 0..<5 {
            _ = try await store.append(
                to: "s\(index)", expected: .noStream, commandID: "c\(index)", actor: "a", events: [event("x")])
        }
        try deleteEvents(in: database, where: "position = 3")
        let report = try store.verify()
        #expect(report.problem?.firstPosition == 3)
        #expect(report.lastPosition == 2)
        #expect(throws: EventLogError.self) { try store.forEachRecord(from: 1, upTo: nil) { _ in } }
    }

    /// Reads arrive as rows of up to 256 events' column arrays, pages of `readPageSize`
    /// positions, on several connections: every event comes back whole and in order across
    /// those seams, and a gap right after a row's seam or at a page's end is refused by name.
    @Test func readsCrossRowAndPageSeamsWholeAndInOrder() async throws {
        let database = try TemporaryDatabase()
        let store = try PostgresEventStore.open(
            url: database.url, options: .init(readPageSize: 300, readConnections: 3), logger: Self.logger)
        defer { try? store.close() }
        var appended: [StreamAppend] = []
        for command in 0..<110 {
            let events = (0..<10).map { index in
                ProposedEvent(
                    eventType: "Noted\(index % 3)", schemaVersion: UInt16(index),
                    occurredAt: Timestamp(microsecondsSinceEpoch: Int64(command * 10 + index)),
                    payload: Array("event \(command)-\(index) ✓ \\ \u{0}".utf8))
            }
            appended.append(
                StreamAppend(
                    streamID: "s\(command % 4)", expected: .any, commandID: "c\(command)", actor: "ä\(command % 5)",
                    events: events,
                    commandFingerprint: command.isMultiple(of: 2) ? CommandFingerprint(sha256Of: [UInt8(command)]) : nil
                ))
        }
        for chunk in stride(from: 0, to: appended.count, by: 20) {
            _ = try await store.append(contentsOf: Array(appended[chunk..<min(chunk + 20, appended.count)]))
        }
        var records: [EventRecord] = []
        try store.forEachRecord(from: 1, upTo: nil) { records.append($0) }
        #expect(records.map(\.position) == Array(1...1_100))
        struct Event: Equatable {
            var stream, command, actor, type: String
            var schemaVersion: UInt16
            var occurredAt: Timestamp
            var payload: [UInt8]
            var fingerprint: CommandFingerprint?
        }
        let expected = appended.flatMap { append in
            append.events.enumerated().map { offset, event in
                Event(
                    stream: append.streamID, command: append.commandID, actor: append.actor, type: event.eventType,
                    schemaVersion: event.schemaVersion, occurredAt: event.occurredAt, payload: event.payload,
                    fingerprint: offset == 0 ? append.commandFingerprint : nil)
            }
        }
        let read = records.map { record in
            Event(
                stream: record.streamID, command: record.commandID, actor: record.actor, type: record.eventType,
                schemaVersion: record.schemaVersion, occurredAt: record.occurredAt, payload: record.payload,
                fingerprint: record.commandFingerprint)
        }
        #expect(read == expected)
        var viewed: [UInt64] = []
        try store.forEachRecordView(from: 250, upTo: 770) { viewed.append($0.position) }
        #expect(viewed == Array(250...770))
        var versions: [UInt64] = []
        try store.forEachRecordView(inStream: "s1", fromVersion: 3) { versions.append($0.streamVersion) }
        #expect(versions == Array(3...280))

        // A page's last position first (verify reads 300 a page here), then one after a row's seam.
        for (gap, verified) in [(600, 600), (514, 514), (1_100, 514)] {
            try deleteEvents(in: database, where: "position = \(gap)")
            var seen: UInt64 = 0
            let error = #expect(throws: EventLogError.self) {
                try store.forEachRecord(from: UInt64(gap - 40), upTo: nil) { seen = $0.position }
            }
            #expect(error?.message.contains("position \(gap) ") == true)
            #expect(seen == UInt64(gap - 1))
            let problem = try store.verify().problem
            #expect(problem?.firstPosition == UInt64(verified))
            #expect(problem?.reason.contains("the next event stored is at \(verified + 1)") == true)
        }
    }

    /// The head row says more events than the table holds: verify says where the events end.
    @Test func verifyNamesEventsEndingBeforeTheHead() async throws {
        let database = try TemporaryDatabase()
        let store = try PostgresEventStore.open(url: database.url, options: .init(readPageSize: 2), logger: Self.logger)
        defer { try? store.close() }
        for index in 0..<5 {
            _ = try await store.append(
                to: "s", expected: .any, commandID: "c\(index)", actor: "a", events: [event("x")])
        }
        try deleteEvents(in: database, where: "position >= 4")
        let problem = try store.verify().problem
        #expect(problem?.firstPosition == 4)
        #expect(problem?.reason == "the head row says the log ends at 5 but the events end at 3")
    }

    @Test func twoStoresOnOneDatabaseShareGaplessPositionsAndCommandIDs() async throws {
        let database = try TemporaryDatabase()
        let left = try PostgresEventStore.open(url: database.url, logger: Self.logger)
        let right = try PostgresEventStore.open(url: database.url, logger: Self.logger)
        defer {
            try? left.close()
            try? right.close()
        }
        // Both "servers" receive the same 30 commands (a device resending to the other one)
        // and race for the same stream versions.
        let outcomes = try await withThrowingTaskGroup(of: [AppendResult].self) { group in
            for store in [left, right] {
                group.addTask {
                    var results: [AppendResult] = []
                    for index in 0..<30 {
                        let result = try await store.append(
                            to: "batch-\(index % 3)", expected: .any, commandID: "cmd-\(index)", actor: "device",
                            events: [event("\(index)")],
                            commandFingerprint: CommandFingerprint(sha256Of: [UInt8(index)]))
                        results.append(result)
                    }
                    return results
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let fresh = outcomes.joined().filter { !$0.wasDuplicate }
        #expect(fresh.count == 30)
        _ = try await left.refresh()
        let records = try left.readRecords()
        #expect(records.map(\.position) == Array(1...30))
        #expect(Set(records.map(\.commandID)).count == 30)
        for stream in ["batch-0", "batch-1", "batch-2"] {
            #expect(records.filter { $0.streamID == stream }.map(\.streamVersion) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
        }
        #expect(try right.verify().problem == nil)
        #expect(try await right.refresh() == 30)
        #expect(right.headHash == left.headHash)
    }

    @Test func aSubscriptionSeesAnotherServersAppendsInOrder() async throws {
        let database = try TemporaryDatabase()
        let writer = try PostgresEventStore.open(url: database.url, logger: Self.logger)
        let reader = try PostgresEventStore.open(url: database.url, logger: Self.logger)
        defer {
            try? writer.close()
            try? reader.close()
        }
        let subscription = PostgresLogSubscription(store: reader, pollInterval: .seconds(30))
        defer { subscription.stop() }
        var positions = subscription.positions.makeAsyncIterator()
        #expect(await positions.next() == 0)
        // The LISTEN is in place once the subscription has read the head; give it that moment
        // through a first append whose arrival we wait for.
        _ = try await writer.append(to: "s", expected: .noStream, commandID: "c0", actor: "a", events: [event("x")])
        var seen = await positions.next()
        #expect(seen == 1)
        for index in 1...5 {
            _ = try await writer.append(
                to: "s", expected: .any, commandID: "c\(index)", actor: "a", events: [event("x")])
        }
        while let position = seen, position < 6 { seen = await positions.next() }
        #expect(seen == 6)
        #expect(reader.lastPosition == 6)
        #expect(reader.headHash == writer.headHash)
        var read: [UInt64] = []
        try reader.forEachRecord(from: 1, upTo: nil) { read.append($0.position) }
        #expect(read == [1, 2, 3, 4, 5, 6])
    }

    @Test func photosAreContentAddressedBlobs() throws {
        let database = try TemporaryDatabase()
        let store = try PostgresEventStore.open(url: database.url, logger: Self.logger)
        defer { try? store.close() }
        let blobs = PostgresBlobStore(store: store)
        let hash = String(repeating: "ab", count: 32)
        #expect(!blobs.contains(sha256: hash))
        #expect(try blobs.write(sha256: hash, bytes: [1, 2, 3]))
        #expect(try !blobs.write(sha256: hash, bytes: [1, 2, 3]))
        #expect(blobs.contains(sha256: hash))
        #expect(blobs.read(sha256: hash) == [1, 2, 3])
        #expect(blobs.read(sha256: String(repeating: "cd", count: 32)) == nil)
    }
}
