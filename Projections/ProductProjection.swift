import GRDB
import Inspection

/// Product discovery: the catalogue with an FTS5 index over name, brand, manufacturer, GTIN and
/// category, for search, the category tree and filters.
///
/// Tables `product`, `product_fts` (rowid = the product's rowid) and `product_child` (what each
/// product directly contains, with quantities, in the registration's order).
public struct ProductProjection: Projection {
    public init() {}
    public var name: String { "products" }
    /// Version 2: children in `product_child` (a mixed shipper has several), not one column.
    public var version: Int { 2 }
    public var eventTypes: Set<String>? { ["ProductRegistered", "DatasheetImported"] }
    public var dependencies: [String] { [] }
    public var tables: [String] { ["product_fts", "product", "product_child"] }
    public var migrations: [String] {
        [
            """
            CREATE TABLE product (
              id INTEGER PRIMARY KEY, gtin TEXT NOT NULL UNIQUE, name TEXT NOT NULL, brand TEXT NOT NULL,
              manufacturer TEXT NOT NULL, product_type INTEGER NOT NULL, category TEXT NOT NULL,
              registered_at INTEGER NOT NULL,
              datasheet TEXT, attributes INTEGER NOT NULL DEFAULT 0)
            """,
            "CREATE INDEX product_category ON product (category)",
            """
            CREATE TABLE product_child (
              gtin TEXT NOT NULL, position INTEGER NOT NULL, child_gtin TEXT NOT NULL, quantity INTEGER NOT NULL,
              PRIMARY KEY (gtin, position)) WITHOUT ROWID
            """,
            "CREATE INDEX product_child_parent ON product_child (child_gtin)",
            """
            CREATE VIRTUAL TABLE product_fts USING fts5(
              gtin, name, brand, manufacturer, category, tokenize = 'unicode61 remove_diacritics 2')
            """,
        ]
    }

    public func makeFold(_ db: Database, context: FoldContext) throws -> any ProjectionFold {
        try ProductFold(db, context: context)
    }
}

/// Keeps product ids in memory (assigned as SQLite would: the largest plus one), so registering
/// a product needs no read.
final class ProductFold: ProjectionFold {
    private let context: FoldContext
    /// GTIN → product id.
    private let ids: RowCache<String, Int64>
    /// The largest product id so far.
    private var lastID: Int64
    private let selectID: Statement
    private let insertProduct: WriteStatement
    private let updateProduct: WriteStatement
    private let deleteSearch: WriteStatement
    private let insertSearch: WriteStatement
    private let updateDatasheet: WriteStatement
    private let deleteChildren: WriteStatement
    private let insertChild: WriteStatement

    init(_ db: Database, context: FoldContext) throws {
        self.context = context
        ids = RowCache(capacity: context.workingSetLimit, completeAfter: context.checkpoint)
        lastID = try Int64.fetchOne(db, sql: "SELECT coalesce(max(id), 0) FROM product") ?? 0
        selectID = try db.makeStatement(sql: "SELECT id FROM product WHERE gtin = ?")
        insertProduct = try context.writeStatement(
            db,
            """
            INSERT INTO product (id, gtin, name, brand, manufacturer, product_type, category, registered_at)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
        updateProduct = try context.writeStatement(
            db,
            """
            UPDATE product SET name = ?, brand = ?, manufacturer = ?, product_type = ?, category = ?
              WHERE id = ?
            """)
        deleteSearch = try context.writeStatement(
            db, "DELETE FROM product_fts WHERE rowid = ?")
        insertSearch = try context.writeStatement(
            db,
            "INSERT INTO product_fts (rowid, gtin, name, brand, manufacturer, category) VALUES (?, ?, ?, ?, ?, ?)")
        updateDatasheet = try context.writeStatement(
            db, "UPDATE product SET datasheet = ?, attributes = ? WHERE gtin = ?")
        deleteChildren = try context.writeStatement(db, "DELETE FROM product_child WHERE gtin = ?")
        insertChild = try context.writeStatement(
            db, "INSERT INTO product_child (gtin, position, child_gtin, quantity) VALUES (?, ?, ?, ?)")
    }

    func apply(_ event: InspectionEvent, _ envelope: EventEnvelope) throws {
        switch event {
        case .productRegistered(let event):
            let id: Int64
            if let existing = try ids.value(event.gtin, load: loadID) {
                id = existing
                try updateProduct.execute(
                    .text(event.name), .text(event.brand), .text(event.manufacturer), .int(event.productType.rawValue),
                    .text(event.category), .integer(id))
                try deleteSearch.execute(.integer(id))
                try deleteChildren.execute(.text(event.gtin))
            } else {
                lastID += 1
                id = lastID
                ids.insert(event.gtin, id)
                try insertProduct.execute(
                    .integer(id), .text(event.gtin), .text(event.name), .text(event.brand), .text(event.manufacturer),
                    .int(event.productType.rawValue), .text(event.category), .integer(envelope.occurredAt))
            }
            for (position, child) in event.children.enumerated() {
                try insertChild.execute(.text(event.gtin), .int(position), .text(child.gtin), .int(child.quantity))
            }
            try insertSearch.execute(
                .integer(id), .text(event.gtin), .text(event.name), .text(event.brand), .text(event.manufacturer),
                .text(event.category))
        case .datasheetImported(let event):
            try updateDatasheet.execute(.text(event.datasheetID), .int(event.attributes.count), .text(event.gtin))
        default:
            break
        }
    }

    func flush(at position: UInt64) throws {
        ids.flush(at: position) { _, _ in }
    }

    private func loadID(_ gtin: String) throws -> Int64? {
        // Every product registered since an empty start is held: a miss is a new product.
        guard !ids.isComplete else { return nil }
        return try context.read { _ in try Int64.fetchOne(selectID, arguments: [gtin]) }
    }
}
