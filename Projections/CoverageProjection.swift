import GRDB
import Inspection

/// Coverage: the catalogue, with product type, listings and receptions. The inspections it
/// counts per period (by product type, mode, location or inspector) are the quality
/// projection's `quality_inspection` rows, joined to the catalogue for the product type.
///
/// Tables `coverage_product` and `coverage_listing`.
public struct CoverageProjection: Projection {
    public init() {}
    public var name: String { "coverage" }
    /// 3: the listings lost their index by location (dropped with the tables when upgrading).
    public var version: Int { 3 }
    public var eventTypes: Set<String>? { ["ProductRegistered", "ProductReceived"] }
    /// Its queries read the quality projection's inspections.
    public var dependencies: [String] { ["quality"] }
    /// `coverage_inspection` is version 1's, dropped when upgrading.
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
        ] + Self.queryIndexes
    }

    /// The indexes the coverage queries read (``ProjectionStore/coverage(from:to:by:)``, the
    /// overdue samples): the catalogue by type and by gtin, the received products, and the
    /// quality projection's inspections per product, in time, with the mode, inspector and
    /// location each grouping counts by. Every grouping reads that one index in product order
    /// (``CoveragePasses``): a rebuild sorts the inspections once, not once per grouping (at 10
    /// million events each such sort took about a second, the folds eight).
    ///
    /// Plain indexes, so the runner builds them after a rebuild's bulk load and creates any that
    /// are missing at the end of every catch-up: a database from before they existed gets them
    /// without refolding, and they come back when the quality projection is rebuilt alone.
    static let queryIndexes = [
        "CREATE INDEX coverage_product_type ON coverage_product (product_type, registered_at)",
        // The catalogue in gtin order without its wide rows, for the passes that merge it with
        // the inspections (``CoveragePasses``).
        "CREATE INDEX coverage_product_gtin ON coverage_product (gtin, product_type, registered_at)",
        "CREATE INDEX coverage_product_due ON coverage_product (inspect_before) WHERE inspect_before IS NOT NULL",
        """
        CREATE INDEX coverage_inspection_product ON quality_inspection (gtin, occurred_at, mode, inspector, location)
        """,
    ]

    public func makeFold(_ db: Database, context: FoldContext) throws -> any ProjectionFold {
        try CoverageFold(db, context: context)
    }
}

final class CoverageFold: ProjectionFold {
    private let upsertProduct: WriteStatement
    private let updateReceived: WriteStatement
    private let insertListing: WriteStatement

    init(_ db: Database, context: FoldContext) throws {
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
    }

    func apply(_ event: InspectionEvent, _ envelope: EventEnvelope) throws {
        switch event {
        case .productRegistered(let event):
            try upsertProduct.execute(
                .text(event.gtin), .int(event.productType.rawValue), .text(event.manufacturer),
                .integer(envelope.occurredAt))
            for location in event.listings { try insertListing.execute(.text(event.gtin), .text(location.locationID)) }
        case .productReceived(let event):
            try updateReceived.execute(
                .integer(envelope.occurredAt), .optional(event.inspectBefore?.microsecondsSinceEpoch), .text(event.gtin)
            )
            try insertListing.execute(.text(event.gtin), .text(event.locationID))
        default:
            break
        }
    }

    func flush(at position: UInt64) throws {}
}
