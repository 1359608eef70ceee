import AuditLog
import AuditService
import Foundation
import GRDB
import Inspection
import Logging
import Projections
import SampleData
import TestSupport

let quietLogger = Logger(label: "projections.tests") { _ in SwiftLogNoOpLogHandler() }

/// A log in the data directory `directory` holding a seeded history written through the real
/// command path (AuditService deciding every command of the SampleData generator), reopened
/// read-only. `events` is a floor: whole days are simulated until the log holds that many.
func sampleLog(in directory: URL, events: Int, seed: UInt64, products: Int = 150) async throws -> EventLog {
    let configuration = WorkloadGenerator.Configuration(
        seed: seed, inspectors: 4, locations: 5, products: products, days: max(3, events / 700))
    let generator = WorkloadGenerator(configuration: configuration)
    let clock = generator.makeClock()
    let service = try await AuditService.open(dataDirectory: directory, clock: clock, logger: quietLogger)
    _ = try await generator.run(service: service, clock: clock)
    try await service.close()
    let log = try EventLog.open(
        directory: DataDirectory(directory).log, configuration: .init(readOnly: true), logger: quietLogger)
    guard log.lastPosition >= UInt64(events) else {
        throw TestFailure("the generated history holds \(log.lastPosition) events, fewer than \(events)")
    }
    return log
}

/// A GS1-valid GTIN-14 for catalogue number `number` (prefix 641489).
func testGTIN(_ number: Int) -> String {
    let body = "0641489" + String(100_000 + number).suffix(6)
    var sum = 0
    for (index, character) in body.reversed().enumerated() {
        let digit = Int(String(character)) ?? 0
        sum += index % 2 == 0 ? digit * 3 : digit
    }
    return body + String((10 - sum % 10) % 10)
}

/// Appends events one command each, at the given occurred-at times (recorded at the same time).
func append(_ events: [(String, InspectionEvent, String)], to log: EventLog, clock: ManualClock) async throws {
    for (index, (stream, event, time)) in events.enumerated() {
        guard let at = Timestamp(iso8601: time) else { throw TestFailure("bad time \(time)") }
        clock.set(at)
        _ = try await log.append(
            to: stream, expected: .any, commandID: "cmd-\(index)", actor: "tester",
            events: [
                ProposedEvent(
                    eventType: event.eventType, schemaVersion: UInt16(event.schemaVersion), occurredAt: at,
                    payload: event.encoded())
            ])
    }
}

/// A bound in µs since the epoch as the queries take it.
func timestamp(_ micros: Int64?) -> Timestamp? { micros.map { Timestamp(microsecondsSinceEpoch: $0) } }

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Every row of every projection table, as sorted text: two stores with the same snapshot hold
/// the same read models.
func snapshot(_ store: ProjectionStore) throws -> [String: [String]] {
    try store.database.read { db in
        let tables = try String.fetchAll(
            db,
            sql: """
                SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
                  AND name NOT LIKE 'product_fts_%' AND name <> 'projection_checkpoint' ORDER BY name
                """)
        var result: [String: [String]] = [:]
        for table in tables {
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM \(table)")
            result[table] = rows.map { $0.description }.sorted()
        }
        return result
    }
}

/// What the queries answer for every batch, product, grouping and search: users see these.
func queryAnswers(_ store: ProjectionStore) throws -> [String] {
    var answers: [String] = []
    let batchIDs = try store.database.read { db in try String.fetchAll(db, sql: "SELECT id FROM batch ORDER BY id") }
    for id in batchIDs { answers.append("\(try store.batch(id).map { "\($0)" } ?? "nil")") }
    let gtins = try store.database.read { db in try String.fetchAll(db, sql: "SELECT gtin FROM product ORDER BY gtin") }
    for gtin in gtins { answers.append("\(try store.productQuality(gtin: gtin).map { "\($0)" } ?? "nil")") }
    answers.append("\(try store.inspectorAnalytics())")
    for grouping in CoverageGrouping.allCases {
        answers.append(
            "\(try store.coverage(to: Timestamp(microsecondsSinceEpoch: 1_775_000_000_000_000), by: grouping))")
    }
    answers.append("\(try store.search(ProductFilter(text: "valio"), limit: 50))")
    answers.append("\(try store.categoryTree())")
    return answers
}
