import Foundation
import GRDB

/// A product in the catalogue, as search and the quality history show it.
public struct ProductHit: Sendable, Hashable, Codable {
    /// The GTIN-14.
    public var gtin: String
    /// Product name.
    public var name: String
    /// Brand.
    public var brand: String
    /// Manufacturer.
    public var manufacturer: String
    /// ``ProductType`` raw value: 0 base, 1 case, 2 pallet.
    public var productType: Int
    /// Its name ("base unit").
    public var productTypeLabel: String
    /// Category path.
    public var category: String
    /// The latest datasheet, if any was imported.
    public var datasheetID: String?
    /// Attributes in the latest datasheet.
    public var attributes: Int
}

/// One page of search results.
public struct SearchPage: Sendable, Hashable, Codable {
    /// How many products match in all.
    public var total: Int
    /// Index of the first item.
    public var offset: Int
    /// The page size asked for.
    public var limit: Int
    /// This page.
    public var items: [ProductHit]
}

/// A node of the category tree (categories are paths such as `Food/Dairy/Cheese`).
public struct CategoryNode: Sendable, Hashable, Codable {
    /// The full path of this node.
    public var path: String
    /// The last segment.
    public var name: String
    /// 0 for a top-level category.
    public var depth: Int
    /// Products in this category or below it.
    public var count: Int
}

/// What to search for.
public struct ProductFilter: Sendable, Hashable {
    /// Words matched by prefix in name, brand, manufacturer, category and GTIN; digits alone match
    /// the GTIN (padded to 14 digits) or a part of it. Empty matches everything.
    public var text: String
    /// Only this ``ProductType`` raw value.
    public var productType: Int?
    /// Only this manufacturer (exact, case-insensitive).
    public var manufacturer: String?

    public init(text: String = "", productType: Int? = nil, manufacturer: String? = nil) {
        self.text = text
        self.productType = productType
        self.manufacturer = manufacturer
    }
}

extension ProjectionStore {
    /// Products matching `filter`, best match first (then by GTIN), `limit` from `offset`.
    public func search(_ filter: ProductFilter, limit: Int = 20, offset: Int = 0) throws -> SearchPage {
        try database.read { db in
            guard try db.tableExists("product") else {
                return SearchPage(total: 0, offset: offset, limit: limit, items: [])
            }
            var conditions: [String] = []
            var arguments: [any DatabaseValueConvertible] = []
            var join = ""
            var order = "p.gtin"
            let text = filter.text.trimmingCharacters(in: .whitespaces)
            if !text.isEmpty, text.allSatisfy(\.isNumber) {
                conditions.append("(p.gtin = ? OR p.gtin LIKE ?)")
                arguments += [Self.gtin14(text), "%\(text)%"]
            } else if let match = Self.ftsQuery(text) {
                join = "JOIN product_fts f ON f.rowid = p.id"
                conditions.append("product_fts MATCH ?")
                arguments.append(match)
                order = "f.rank, p.gtin"
            }
            if let type = filter.productType {
                conditions.append("p.product_type = ?")
                arguments.append(type)
            }
            if let manufacturer = filter.manufacturer {
                conditions.append("p.manufacturer = ? COLLATE NOCASE")
                arguments.append(manufacturer)
            }
            let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            let total =
                try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM product p \(join) \(whereClause)",
                    arguments: StatementArguments(arguments)) ?? 0
            let rows = try Row.fetchAll(
                db, sql: "SELECT p.* FROM product p \(join) \(whereClause) ORDER BY \(order) LIMIT ? OFFSET ?",
                arguments: StatementArguments(arguments + [limit, offset]))
            return SearchPage(total: total, offset: offset, limit: limit, items: rows.map(Self.hit))
        }
    }

    /// The category tree with product counts (a node counts its descendants), depth first.
    public func categoryTree(_ filter: ProductFilter = ProductFilter()) throws -> [CategoryNode] {
        let page = try database.read { db -> [(String, Int)] in
            guard try db.tableExists("product") else { return [] }
            var conditions: [String] = []
            var arguments: [any DatabaseValueConvertible] = []
            if let type = filter.productType {
                conditions.append("product_type = ?")
                arguments.append(type)
            }
            if let manufacturer = filter.manufacturer {
                conditions.append("manufacturer = ? COLLATE NOCASE")
                arguments.append(manufacturer)
            }
            let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            return try Row.fetchAll(
                db, sql: "SELECT category, count(*) FROM product \(whereClause) GROUP BY category",
                arguments: StatementArguments(arguments)
            ).map { ($0[0], $0[1]) }
        }
        var counts: [String: Int] = [:]
        for (category, count) in page {
            let parts = category.split(separator: "/")
            for depth in parts.indices { counts[parts[...depth].joined(separator: "/"), default: 0] += count }
        }
        return counts.keys.sorted().map { path in
            let parts = path.split(separator: "/")
            return CategoryNode(
                path: path, name: String(parts.last ?? ""), depth: parts.count - 1, count: counts[path] ?? 0)
        }
    }

    static func productHit(_ gtin: String, _ db: Database) throws -> ProductHit? {
        try Row.fetchOne(db, sql: "SELECT * FROM product WHERE gtin = ?", arguments: [gtin]).map(hit)
    }

    static func hit(_ row: Row) -> ProductHit {
        ProductHit(
            gtin: row["gtin"], name: row["name"], brand: row["brand"], manufacturer: row["manufacturer"],
            productType: row["product_type"], productTypeLabel: ReportLabels.productType(row["product_type"]),
            category: row["category"], datasheetID: row["datasheet"],
            attributes: row["attributes"])
    }

    /// Each word as a quoted prefix term, all required: `"val"* "chee"*`; nil when there are none.
    static func ftsQuery(_ text: String) -> String? {
        let words = text.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map {
            "\"" + $0.replacingOccurrences(of: "\"", with: "") + "\"*"
        }
        return words.isEmpty ? nil : words.joined(separator: " ")
    }
}
