import GRDB

/// A product's place in the packaging hierarchy, from the product read model's registrations
/// (each product names the GTIN it directly contains and how many).
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
    /// Every product that contains it, nearest first (its cases, then their pallets).
    public var containedIn: [Level]
}

extension ProjectionStore {
    /// The packaging hierarchy around `gtin`, or nil when no registration named it. A cycle or a
    /// child never registered ends a chain (at most 16 levels are followed either way).
    public func packagingHierarchy(gtin: String) throws -> PackagingHierarchy? {
        try database.read { db in
            guard try db.tableExists("product") else { return nil }
            let columns = "SELECT gtin, name, product_type, child_gtin, child_quantity FROM product"
            func levels(_ rows: [Row]) -> [PackagingHierarchy.Level] {
                rows.map { row in
                    let child: String? = row["child_gtin"]
                    return PackagingHierarchy.Level(
                        gtin: row["gtin"], name: row["name"], productType: row["product_type"], childGTIN: child,
                        childQuantity: child == nil ? nil : row["child_quantity"] as Int)
                }
            }
            guard let item = levels(try Row.fetchAll(db, sql: "\(columns) WHERE gtin = ?", arguments: [gtin])).first
            else { return nil }
            var seen: Set<String> = [gtin]
            var contains: [PackagingHierarchy.Level] = []
            var next = item.childGTIN
            while let child = next, contains.count < 16, seen.insert(child).inserted,
                let level = levels(try Row.fetchAll(db, sql: "\(columns) WHERE gtin = ?", arguments: [child])).first
            {
                contains.append(level)
                next = level.childGTIN
            }
            var containedIn: [PackagingHierarchy.Level] = []
            var frontier = [gtin]
            for _ in 0..<16 where !frontier.isEmpty {
                let marks = frontier.map { _ in "?" }.joined(separator: ",")
                let parents = levels(
                    try Row.fetchAll(
                        db, sql: "\(columns) WHERE child_gtin IN (\(marks)) ORDER BY gtin",
                        arguments: StatementArguments(frontier))
                ).filter { seen.insert($0.gtin).inserted }
                containedIn += parents
                frontier = parents.map(\.gtin)
            }
            return PackagingHierarchy(product: item, contains: contains, containedIn: containedIn)
        }
    }
}
