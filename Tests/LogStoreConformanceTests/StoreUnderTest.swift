import AuditLog
import Chronology
import Foundation
import Logging
import PostgresLog
import PostgresTestSupport
import TestSupport
import Testing

/// The stores every conformance test runs against.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case file
    case postgres

    var testDescription: String { rawValue }
}

/// A fresh store of one kind with a manual clock, and what a test needs around it: reopening,
/// and changing a stored event behind the store's back.
final class StoreUnderTest: @unchecked Sendable {
    // @unchecked: `store` is replaced only by `reopen()`, which tests call from one task.
    let kind: StoreKind
    let clock: ManualClock
    private(set) var store: any EventStore
    private let directory: TemporaryDirectory?
    let database: TemporaryDatabase?

    static let logger = Logger(label: "itemaudit.test.conformance") { _ in SwiftLogNoOpLogHandler() }
    /// 2026-01-01T00:00:00Z: every history starts here, so both stores record the same times.
    static let start = Timestamp(microsecondsSinceEpoch: 1_767_225_600_000_000)

    init(_ kind: StoreKind) throws {
        self.kind = kind
        clock = ManualClock(Self.start)
        switch kind {
        case .file:
            let directory = try TemporaryDirectory(prefix: "itemaudit-conformance")
            self.directory = directory
            database = nil
            store = try EventLog.open(directory: directory.url, clock: clock, logger: Self.logger)
        case .postgres:
            let database = try TemporaryDatabase()
            self.database = database
            directory = nil
            store = try PostgresEventStore.open(url: database.url, clock: clock, logger: Self.logger)
        }
    }

    deinit { try? store.close() }

    /// Closes the store and opens it again from what it stored.
    func reopen() throws {
        try store.close()
        switch kind {
        case .file:
            guard let directory else { return }
            store = try EventLog.open(directory: directory.url, clock: clock, logger: Self.logger)
        case .postgres:
            guard let database else { return }
            store = try PostgresEventStore.open(url: database.url, clock: clock, logger: Self.logger)
        }
    }

    /// Changes the payload of the event at `position` without the store knowing: a byte of the
    /// segment file, or an `UPDATE` of the row (with the append-only trigger switched off, as an
    /// owner of the database could).
    func tamper(position: UInt64) throws {
        switch kind {
        case .file:
            try store.close()
            guard let directory else { return }
            let segments = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
                .filter { $0.hasPrefix("segment-") }.sorted()
            let file = directory.url.appendingPathComponent(try #require(segments.first))
            var bytes = try [UInt8](Data(contentsOf: file))
            bytes[bytes.count / 2] ^= 0x5A
            try Data(bytes).write(to: file)
        case .postgres:
            try database?.execute(
                """
                ALTER TABLE itemaudit_events DISABLE TRIGGER itemaudit_events_append_only;
                UPDATE itemaudit_events SET payload = payload || '\\x00'::bytea WHERE position = \(position);
                ALTER TABLE itemaudit_events ENABLE TRIGGER itemaudit_events_append_only;
                """)
        }
    }

    /// Verifies what is stored now (the file log from its directory, as `itemaudit verify` does).
    func verify() throws -> VerificationReport {
        switch kind {
        case .file:
            guard let directory else { throw CancellationError() }
            return try EventLog.verify(directory: directory.url)
        case .postgres:
            return try store.verify(progress: nil)
        }
    }
}

/// An event with a small readable payload.
func event(_ text: String, at time: Timestamp = StoreUnderTest.start, type: String = "Noted") -> ProposedEvent {
    ProposedEvent(eventType: type, schemaVersion: 1, occurredAt: time, payload: Array(text.utf8))
}

/// A fingerprint for a command's content.
func fingerprint(_ text: String) -> CommandFingerprint { CommandFingerprint(sha256Of: Array(text.utf8)) }
