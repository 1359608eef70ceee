import GRDB
import Inspection

/// Coverage: the catalogue (with product type, listings and receptions) and every finished
/// inspection with its product type, mode, location and inspector, so coverage per period can
/// be counted for any grouping.
///
/// Tables `coverage_product`, `coverage_listing` and `coverage_inspection`.
public struct CoverageProjection: Projection {
    public init() {}
    public var name: String { "coverage" }
    public var version: Int { 1 }
    public var eventTypes: Set<String>? { ["ProductRegistered", "ProductReceived", "InspectionFinished"] }
    public var dependencies: [String] { ["directory"] }
    public var tables: [String] { ["coverage_product", "coverage_listing", "coverage_inspection"] }
    public var migrations: [String] {
        [
            """
            CREATE TABLE coverage_product (
              gtin TEXT PRIMARY KEY, product_type INTEGER NOT NULL, manufacturer TEXT NOT NULL,
              registered_at INTEGER NOT NULL, received_at INTEGER, inspect_before INTEGER) WITHOUT ROWID
            """,
            """
            CREATE TABLE coverage_listing (
              gtin TEXT NOT NULL, location TEXT NOT NULL, PRIMARY KEY (gtin, location)) WITHOUT ROWID
            """,
            """
            CREATE TABLE coverage_inspection (
              position INTEGER PRIMARY KEY, gtin TEXT NOT NULL, product_type INTEGER NOT NULL, mode INTEGER NOT NULL,
              location TEXT NOT NULL, inspector TEXT NOT NULL, finished_at INTEGER NOT NULL)
            """,
        ]
    }

    public func makeFold(_ db: Database, context: FoldContext) throws -> any ProjectionFold {
        try CoverageFold(db, directory: context.directory, limit: context.workingSetLimit)
    }
}

final class CoverageFold: ProjectionFold {
    /// GTIN → product type (-1 when the product is not registered).
    private let productTypes: RowCache<String, Int>
    private let directory: TaskDirectory?
    private let insertInspection: WriteStatement
    private let selectType: Statement

    init(_ db: Database, directory: TaskDirectory?, limit: Int) throws {
        self.directory = directory
        productTypes = RowCache(capacity: limit)
        insertInspection = try WriteStatement(
            db,
            """
            INSERT INTO coverage_inspection (position, gtin, product_type, mode, location, inspector, finished_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        selectType = try db.makeStatement(sql: "SELECT product_type FROM coverage_product WHERE gtin = ?")
    }

    func apply(_ event: InspectionEvent, _ envelope: EventEnvelope, _ db: Database) throws {
        switch event {
        case .productRegistered(let event):
            try db.cachedStatement(
                sql: """
                    INSERT INTO coverage_product (gtin, product_type, manufacturer, registered_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT (gtin) DO UPDATE SET product_type = excluded.product_type,
                      manufacturer = excluded.manufacturer
                    """
            ).execute(arguments: [event.gtin, event.productType.rawValue, event.manufacturer, envelope.occurredAt])
            productTypes.remove(event.gtin)
            let listing = try db.cachedStatement(
                sql: "INSERT OR IGNORE INTO coverage_listing (gtin, location) VALUES (?, ?)")
            for location in event.listings { try listing.execute(arguments: [event.gtin, location.locationID]) }
        case .productReceived(let event):
            try db.cachedStatement(
                sql: "UPDATE coverage_product SET received_at = ?, inspect_before = ? WHERE gtin = ?"
            ).execute(arguments: [envelope.occurredAt, event.inspectBefore?.microseconds, event.gtin])
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO coverage_listing (gtin, location) VALUES (?, ?)")
                .execute(arguments: [event.gtin, event.locationID])
        case .inspectionFinished(let event):
            guard let task = try directory?.record(event.taskID, db) else { return }
            let type = try productTypes.value(task.facts.gtin) {
                try Int.fetchOne(selectType, arguments: [$0]) ?? -1
            }
            try insertInspection.execute(
                .integer(Int64(envelope.position)), .text(task.facts.gtin), .int(type ?? -1), .int(task.facts.mode),
                .text(task.facts.locationID), .text(task.facts.inspectorID), .integer(envelope.occurredAt))
        default:
            break
        }
    }

    func flush(_ db: Database, at position: UInt64) throws {
        productTypes.flush(at: position) { _, _ in }
    }
}
