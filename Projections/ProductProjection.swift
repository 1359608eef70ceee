import GRDB
import Inspection

/// Product discovery: the catalogue with an FTS5 index over name, brand, manufacturer, GTIN and
/// category, for search, the category tree and filters.
///
/// Tables `product` and `product_fts` (rowid = the product's rowid).
public struct ProductProjection: Projection {
    public init() {}
    public var name: String { "products" }
    public var version: Int { 1 }
    public var eventTypes: Set<String>? { ["ProductRegistered", "DatasheetImported"] }
    public var dependencies: [String] { [] }
    public var tables: [String] { ["product_fts", "product"] }
    public var migrations: [String] {
        [
            """
            CREATE TABLE product (
              id INTEGER PRIMARY KEY, gtin TEXT NOT NULL UNIQUE, name TEXT NOT NULL, brand TEXT NOT NULL,
              manufacturer TEXT NOT NULL, product_type INTEGER NOT NULL, category TEXT NOT NULL,
              child_gtin TEXT, child_quantity INTEGER NOT NULL, registered_at INTEGER NOT NULL,
              datasheet TEXT, attributes INTEGER NOT NULL DEFAULT 0)
            """,
            "CREATE INDEX product_category ON product (category)",
            """
            CREATE VIRTUAL TABLE product_fts USING fts5(
              gtin, name, brand, manufacturer, category, tokenize = 'unicode61 remove_diacritics 2')
            """,
        ]
    }

    public func makeFold(_ db: Database, context: FoldContext) throws -> any ProjectionFold { ProductFold() }
}

final class ProductFold: ProjectionFold {
    func apply(_ event: InspectionEvent, _ envelope: EventEnvelope, _ db: Database) throws {
        switch event {
        case .productRegistered(let event):
            let existing = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT id FROM product WHERE gtin = ?"), arguments: [event.gtin])
            let id: Int64
            if let existing {
                id = existing
                try db.cachedStatement(
                    sql: """
                        UPDATE product SET name = ?, brand = ?, manufacturer = ?, product_type = ?, category = ?,
                          child_gtin = ?, child_quantity = ? WHERE id = ?
                        """
                ).execute(arguments: [
                    event.name, event.brand, event.manufacturer, event.productType.rawValue, event.category,
                    event.childGTIN, event.childQuantity, id,
                ])
                try db.cachedStatement(sql: "DELETE FROM product_fts WHERE rowid = ?").execute(arguments: [id])
            } else {
                try db.cachedStatement(
                    sql: """
                        INSERT INTO product (gtin, name, brand, manufacturer, product_type, category, child_gtin,
                          child_quantity, registered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """
                ).execute(arguments: [
                    event.gtin, event.name, event.brand, event.manufacturer, event.productType.rawValue,
                    event.category, event.childGTIN, event.childQuantity, envelope.occurredAt,
                ])
                id = db.lastInsertedRowID
            }
            try db.cachedStatement(
                sql:
                    "INSERT INTO product_fts (rowid, gtin, name, brand, manufacturer, category) VALUES (?, ?, ?, ?, ?, ?)"
            ).execute(arguments: [id, event.gtin, event.name, event.brand, event.manufacturer, event.category])
        case .datasheetImported(let event):
            try db.cachedStatement(sql: "UPDATE product SET datasheet = ?, attributes = ? WHERE gtin = ?")
                .execute(arguments: [event.datasheetID, event.attributes.count, event.gtin])
        default:
            break
        }
    }

    func flush(_ db: Database, at position: UInt64) throws {}
}
