import GRDB
import Inspection

/// Trade-item packaging from product registrations: which GTIN each product contains and how many
/// (a case holds 12 base units, a pallet 40 cases). It answers a product's hierarchy: what it
/// contains, level by level down to the base unit, and every product that contains it.
public struct PackagingProjection: PlainProjection {
    public init() {}
    public var name: String { "packaging" }
    public var version: Int { 1 }
    public var eventTypes: Set<String> { ["ProductRegistered"] }
    public var tables: [String] { [PackagingItemRecord.databaseTableName] }

    public func registerMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("packaging.v1") { db in
            try db.create(table: PackagingItemRecord.databaseTableName) { table in
                table.primaryKey("gtin", .text)
                table.column("name", .text).notNull()
                table.column("productType", .integer).notNull()
                table.column("childGTIN", .text)
                table.column("childQuantity", .integer).notNull()
            }
            try db.create(
                index: "packaging_item_child", on: PackagingItemRecord.databaseTableName, columns: ["childGTIN"])
        }
    }

    public func apply(_ event: InspectionEvent, _ envelope: EventEnvelope, _ db: Database) throws {
        guard case .productRegistered(let product) = event else { return }
        try PackagingItemRecord(
            gtin: product.gtin, name: product.name, productType: product.productType.rawValue,
            childGTIN: product.childGTIN, childQuantity: product.childGTIN == nil ? 0 : product.childQuantity
        ).save(db)
    }
}

/// One registered product's packaging row: what it directly contains.
public struct PackagingItemRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "packaging_item"
    /// The GTIN-14.
    public var gtin: String
    public var name: String
    /// 0 base unit, 1 case, 2 pallet.
    public var productType: Int
    /// The GTIN it directly contains, if any.
    public var childGTIN: String?
    /// How many of `childGTIN` it holds (0 without a child).
    public var childQuantity: Int
}

/// A product's place in the packaging hierarchy.
public struct PackagingHierarchy: Sendable, Hashable, Codable {
    /// One product at some level of the hierarchy.
    public struct Level: Sendable, Hashable, Codable {
        public var gtin: String
        public var name: String
        /// 0 base unit, 1 case, 2 pallet.
        public var productType: Int
        /// What it directly contains and how many (nil for a base unit).
        public var childGTIN: String?
        public var childQuantity: Int?
    }

    /// The product itself.
    public var product: Level
    /// What it contains, nearest first, down to the base unit (a pallet: its case, then the base unit).
    public var contains: [Level]
    /// The products that contain it, nearest first (its cases, then their pallets).
    public var containedIn: [Level]
}

extension ProjectionStore {
    /// The packaging hierarchy around `gtin`, or nil when no registration named it. A cycle or a
    /// child never registered ends a chain (at most 16 levels are followed either way).
    public func packaging(gtin: String) throws -> PackagingHierarchy? {
        try database.read { db in
            guard try db.tableExists(PackagingItemRecord.databaseTableName),
                let item = try PackagingItemRecord.fetchOne(db, key: gtin)
            else { return nil }
            func level(_ item: PackagingItemRecord) -> PackagingHierarchy.Level {
                .init(
                    gtin: item.gtin, name: item.name, productType: item.productType, childGTIN: item.childGTIN,
                    childQuantity: item.childGTIN == nil ? nil : item.childQuantity)
            }
            var seen: Set<String> = [gtin]
            var contains: [PackagingHierarchy.Level] = []
            var next = item.childGTIN
            while let child = next, contains.count < 16, seen.insert(child).inserted,
                let record = try PackagingItemRecord.fetchOne(db, key: child)
            {
                contains.append(level(record))
                next = record.childGTIN
            }
            var containedIn: [PackagingHierarchy.Level] = []
            var frontier = [gtin]
            for _ in 0..<16 where !frontier.isEmpty {
                let parents = try PackagingItemRecord.filter(frontier.contains(Column("childGTIN")))
                    .order(Column("gtin")).fetchAll(db).filter { seen.insert($0.gtin).inserted }
                containedIn += parents.map(level)
                frontier = parents.map(\.gtin)
            }
            return PackagingHierarchy(product: level(item), contains: contains, containedIn: containedIn)
        }
    }
}
