import GRDB

/// A product's place in the packaging hierarchy, from the product read model's registrations
/// (each product names the GTINs it directly contains and how many of each).
public struct PackagingHierarchy: Sendable, Hashable, Codable {
    /// One product a level directly contains, and how many of it.
    public struct Child: Sendable, Hashable, Codable {
        public var gtin: String
        public var quantity: Int
    }

    /// One product at some level of the hierarchy.
    public struct Level: Sendable, Hashable, Codable {
        public var gtin: String
        public var name: String
        /// 0 base unit, 1 case, 2 pallet.
        public var productType: Int
        /// What it directly contains and how many, when that is one product (nil for a base unit
        /// and for a mixed case or shipper: `children` lists those).
        public var childGTIN: String?
        public var childQuantity: Int?
        /// Every product it directly contains with its quantity, in the registration's order
        /// (empty for a base unit).
        public var children: [Child]
    }

    /// The product itself.
    public var product: Level
    /// Everything it contains, nearest level first, down to the base units (a pallet: its cases,
    /// then their base units; a mixed shipper: each of its children). Each product once.
    public var contains: [Level]
    /// Every product that contains it, nearest first (its cases, then their pallets).
    public var containedIn: [Level]
}

extension ProjectionStore {
    /// How many levels are followed either way, and how many products one level may list: a
    /// cycle, a child never registered or an absurd registration ends the walk, never the reader.
    static let packagingDepth = 16
    static let packagingBreadth = 256

    /// The packaging hierarchy around `gtin`, or nil when no registration named it. A cycle or a
    /// child never registered ends a chain (at most 16 levels are followed either way).
    public func packagingHierarchy(gtin: String) throws -> PackagingHierarchy? {
        try database.read { db in
            guard try db.tableExists("product") else { return nil }
            guard let item = try Self.levels(db, gtins: [gtin]).first else { return nil }
            var seen: Set<String> = [gtin]
            var contains: [PackagingHierarchy.Level] = []
            var frontier = [item]
            for _ in 0..<Self.packagingDepth where !frontier.isEmpty {
                let next = frontier.flatMap(\.children).map(\.gtin).filter { seen.insert($0).inserted }
                frontier = try Self.levels(db, gtins: Array(next.prefix(Self.packagingBreadth)))
                contains += frontier
            }
            var containedIn: [PackagingHierarchy.Level] = []
            var parents = [gtin]
            for _ in 0..<Self.packagingDepth where !parents.isEmpty {
                let marks = parents.map { _ in "?" }.joined(separator: ",")
                let found = try String.fetchAll(
                    db,
                    sql: """
                        SELECT DISTINCT gtin FROM product_child WHERE child_gtin IN (\(marks))
                        ORDER BY gtin LIMIT \(Self.packagingBreadth)
                        """,
                    arguments: StatementArguments(parents)
                ).filter { seen.insert($0).inserted }
                let levels = try Self.levels(db, gtins: found)
                containedIn += levels
                parents = levels.map(\.gtin)
            }
            return PackagingHierarchy(product: item, contains: contains, containedIn: containedIn)
        }
    }

    /// The registered products among `gtins`, in that order, with their children.
    private static func levels(_ db: Database, gtins: [String]) throws -> [PackagingHierarchy.Level] {
        guard !gtins.isEmpty else { return [] }
        let marks = gtins.map { _ in "?" }.joined(separator: ",")
        let arguments = StatementArguments(gtins)
        var children: [String: [PackagingHierarchy.Child]] = [:]
        for row in try Row.fetchAll(
            db,
            sql:
                "SELECT gtin, child_gtin, quantity FROM product_child WHERE gtin IN (\(marks)) ORDER BY gtin, position",
            arguments: arguments)
        {
            children[row["gtin"], default: []].append(
                PackagingHierarchy.Child(gtin: row["child_gtin"], quantity: row["quantity"]))
        }
        var levels: [String: PackagingHierarchy.Level] = [:]
        for row in try Row.fetchAll(
            db, sql: "SELECT gtin, name, product_type FROM product WHERE gtin IN (\(marks))", arguments: arguments)
        {
            let gtin: String = row["gtin"]
            let contained = children[gtin] ?? []
            let only = contained.count == 1 ? contained.first : nil
            levels[gtin] = PackagingHierarchy.Level(
                gtin: gtin, name: row["name"], productType: row["product_type"], childGTIN: only?.gtin,
                childQuantity: only?.quantity, children: contained)
        }
        return gtins.compactMap { levels[$0] }
    }
}
