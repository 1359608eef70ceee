import Chronology
import Foundation
import Logging

@testable import AuditLog

/// A fresh temporary directory, removed when the test ends.
struct TemporaryDirectory: ~Copyable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("auditlog-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

let quietLogger = Logger(label: "auditlog-tests") { _ in SwiftLogNoOpLogHandler() }

/// A clock at 2024-05-01T08:00:00Z that moves one millisecond per reading.
final class SteppingClock: LogClock, @unchecked Sendable {
    // @unchecked: `current` is only touched while holding `lock`.
    private let lock = NSLock()
    private var current = Timestamp(microsecondsSinceEpoch: 1_714_550_400_000_000)

    func now() -> Timestamp {
        lock.withLock {
            current = current.adding(microseconds: 1000)
            return current
        }
    }
}

/// Small segments and frames so tests cross segment boundaries with few events.
let smallConfiguration = EventLog.Configuration(segmentSize: 16 << 10, frameSize: 2 << 10, checkpointInterval: 8 << 10)

func openLog(
    _ directory: URL, _ configuration: EventLog.Configuration = smallConfiguration,
    clock: any LogClock = SteppingClock()
)
    throws -> EventLog
{
    try EventLog.open(directory: directory, configuration: configuration, clock: clock, logger: quietLogger)
}

func event(_ type: String = "ProductCollected", _ text: String, at micros: Int64 = 1_714_550_000_000_000)
    -> ProposedEvent
{
    ProposedEvent(
        eventType: type, schemaVersion: 1, occurredAt: Timestamp(microsecondsSinceEpoch: micros),
        payload: Array(text.utf8))
}

extension EventLog {
    /// Every record, through the fast path.
    func allRecords() throws -> [EventRecord] {
        var records: [EventRecord] = []
        try forEachRecord { records.append($0) }
        return records
    }
}
