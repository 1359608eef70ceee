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
    public var dependencies: [String] { ["batches"] }
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
        try CoverageFold(db, directory: context.directory, context: context)
    }
}

final class CoverageFold: ProjectionFold {
    private let context: FoldContext
    /// GTIN → product type (-1 when the product is not registered).
    private let productTypes: RowCache<String, Int>
    private let directory: TaskDirectory?
    private let insertInspection: WriteStatement
    private let upsertProduct: WriteStatement
    private let updateReceived: WriteStatement
    private let insertListing: WriteStatement
    private let selectType: Statement

    init(_ db: Database, directory: TaskDirectory?, context: FoldContext) throws {
        let limit = context.workingSetLimit
        self.context = context
        self.directory = directory
        productTypes = RowCache(capacity: limit, completeAfter: context.checkpoint)
        upsertProduct = try context.writeStatement(
            db,
            """
            INSERT INTO coverage_product (gtin, product_type, manufacturer, registered_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (gtin) DO UPDATE SET product_type = excluded.product_type,
              manufacturer = excluded.manufacturer
            """)
        updateReceived = try context.writeStatement(
            db,
            "UPDATE coverage_product SET received_at = ?, inspect_before = ? WHERE gtin = ?")
        insertListing = try context.writeStatement(
            db, "INSERT OR IGNORE INTO coverage_listing (gtin, location) VALUES (?, ?)")
        insertInspection = try context.writeStatement(
            db,
            """
            INSERT INTO coverage_inspection (position, gtin, product_type, mode, location, inspector, finished_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        selectType = try db.makeStatement(sql: "SELECT product_type FROM coverage_product WHERE gtin = ?")
    }

    func apply(_ event: InspectionEvent, _ envelope: EventEnvelope, _ task: TaskRecord?) throws {
        switch event {
        case .productRegistered(let event):
            try upsertProduct.execute(
                .text(event.gtin), .int(event.productType.rawValue), .text(event.manufacturer),
                .integer(envelope.occurredAt))
            productTypes.insert(event.gtin, event.productType.rawValue)
            for location in event.listings { try insertListing.execute(.text(event.gtin), .text(location.locationID)) }
        case .productReceived(let event):
            try updateReceived.execute(
                .integer(envelope.occurredAt), .optional(event.inspectBefore?.microseconds), .text(event.gtin))
            try insertListing.execute(.text(event.gtin), .text(event.locationID))
        case .inspectionFinished:
            guard let task else { return }
            let type = try productTypes.value(task.gtin) { gtin -> Int? in
                // Every product registered since an empty start is held: a miss is an unknown GTIN.
                if productTypes.isComplete { return -1 }
                return try context.read { _ in try Int.fetchOne(selectType, arguments: [gtin]) } ?? -1
            }
            try insertInspection.execute(
                .integer(Int64(envelope.position)), .text(task.gtin), .int(type ?? -1), .int(task.mode),
                .text(task.locationID), .text(task.inspectorID), .integer(envelope.occurredAt))
        default:
            break
        }
    }

    func flush(at position: UInt64) throws {
        productTypes.flush(at: position) { _, _ in }
    }
}
