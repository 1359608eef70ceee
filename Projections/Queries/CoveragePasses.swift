import GRDB

/// Coverage by product type, location, mode and inspector counted in Swift over index scans that
/// are already in order, merged where two tables meet: each row is read once and no temporary
/// B-tree is built (SQLite's joins probed an index per row and sorted for `count(DISTINCT)`:
/// two thirds of a coverage page at 50,000 products).
///
/// Every figure is the one ``ProjectionStore/coverage(from:to:by:)`` documents; a test compares
/// them with the plain definition on generated histories for any period.
struct CoveragePasses {
    /// Inspections from `from` (inclusive) to `to` (exclusive), µs since the epoch.
    let from: Int64
    let to: Int64

    /// One group's figures as the coverage rows count them.
    struct Figures {
        var group: String
        var catalogue: Int
        var inspected: Int
        var inspections: Int
        var neverInspected: Int?
        var overdue: Int?
    }

    /// What one merge of the catalogue with its inspections gives the type and location groupings.
    struct CatalogueMerge {
        struct TypeCounts {
            var catalogue = 0, inspected = 0, inspections = 0, seenBefore = 0
        }
        /// Per product type, its figures (type grouping).
        var byType: [Int64: TypeCounts] = [:]
        /// Products registered at or after `to`, not yet in a location's catalogue (location grouping).
        var late = Set<String>()
        /// Products registered before `to` and inspected anywhere before it (location grouping).
        var seen = Set<String>()
    }

    /// The catalogue merged once with the inspections before `to`, keeping what the type grouping
    /// (`types`) and the location grouping (`locations`) need (nothing is read when neither does).
    func catalogueMerge(_ db: Database, types: Bool, locations: Bool) throws -> CatalogueMerge {
        var merge = CatalogueMerge()
        guard types || locations else { return merge }
        try forEachProduct(db) { gtin, type, registeredAt, inPeriod, inspectedBefore in
            if types {
                var entry = merge.byType[type, default: CatalogueMerge.TypeCounts()]
                if registeredAt < to { entry.catalogue += 1 }
                if inPeriod > 0 { entry.inspected += 1 }
                entry.inspections += inPeriod
                if inspectedBefore && registeredAt < to { entry.seenBefore += 1 }
                merge.byType[type] = entry
            }
            if locations {
                if registeredAt >= to {
                    merge.late.insert(String(decoding: gtin, as: UTF8.self))
                } else if inspectedBefore {
                    merge.seen.insert(String(decoding: gtin, as: UTF8.self))
                }
            }
        }
        return merge
    }

    /// Per product type: the catalogue registered before `to`; the products (of any registration
    /// time) inspected in the period and those inspections; the catalogue products never inspected
    /// before `to`; the overdue ones. Types without a product registered before `to` are left out.
    func byType(_ db: Database, _ merge: CatalogueMerge) throws -> [Figures] {
        let due = try overdue(db, groupedBy: "c.product_type", join: "")
        return merge.byType.filter { $0.value.catalogue > 0 }.sorted { $0.key < $1.key }.map { type, entry in
            let group = String(type)
            return Figures(
                group: group, catalogue: entry.catalogue, inspected: entry.inspected, inspections: entry.inspections,
                neverInspected: entry.catalogue - entry.seenBefore, overdue: due[group] ?? 0)
        }
    }

    /// Per location (every listing is of a registered product): its listings of products
    /// registered before `to`; the listed products inspected there in the period and those
    /// inspections; the listed products never inspected (anywhere) before `to`; the overdue ones.
    func byLocation(_ db: Database, _ merge: CatalogueMerge) throws -> [Figures] {
        let late = merge.late
        let seen = merge.seen
        struct Counts {
            var listed = 0, late = 0, seen = 0, inspected = 0, inspections = 0
        }
        var rows: [(location: String, counts: Counts)] = []
        // Listings and the period's inspections, both in (location, gtin) order: an inspection
        // counts where its product is listed at its location.
        try RowStream.read(
            db, sql: "SELECT location, gtin FROM coverage_listing ORDER BY location, gtin", arguments: []
        ) { listings in
            try RowStream.read(
                db,
                sql: """
                    SELECT location, gtin FROM quality_inspection
                    WHERE occurred_at >= ? AND occurred_at < ? ORDER BY location, gtin, occurred_at
                    """, arguments: [from, to]
            ) { inspections in
                var moreInspections = try inspections.next()
                var location: [UInt8] = []
                var counts: Counts?
                while try listings.next() {
                    let listedAt = listings.bytes(0)
                    let gtin = listings.bytes(1)
                    if counts == nil || !sameBytes(listedAt, location) {
                        if let counts { rows.append((String(decoding: location, as: UTF8.self), counts)) }
                        location = Array(listedAt)
                        counts = Counts()
                    }
                    counts?.listed += 1
                    let product = String(decoding: gtin, as: UTF8.self)
                    if late.contains(product) { counts?.late += 1 }
                    if seen.contains(product) { counts?.seen += 1 }
                    var here = 0
                    while moreInspections {
                        var order = binaryOrder(inspections.bytes(0), listedAt)
                        if order == 0 { order = binaryOrder(inspections.bytes(1), gtin) }
                        if order > 0 { break }
                        if order == 0 { here += 1 }
                        moreInspections = try inspections.next()
                    }
                    if here > 0 {
                        counts?.inspected += 1
                        counts?.inspections += here
                    }
                }
                if let counts { rows.append((String(decoding: location, as: UTF8.self), counts)) }
            }
        }
        let due = try overdue(db, groupedBy: "s.location", join: "JOIN coverage_listing s ON s.gtin = c.gtin")
        return rows.filter { $0.counts.listed > $0.counts.late }.map { location, counts in
            let catalogue = counts.listed - counts.late
            return Figures(
                group: location, catalogue: catalogue, inspected: counts.inspected, inspections: counts.inspections,
                neverInspected: catalogue - counts.seen, overdue: due[location] ?? 0)
        }
    }

    /// Per inspection mode or inspector (`column`), in its order: the catalogue registered before
    /// `to`, the distinct products inspected in the period and the inspections.
    func byColumn(_ db: Database, _ column: String) throws -> [Figures] {
        let catalogue =
            try Int.fetchOne(
                db.cachedStatement(sql: "SELECT count(*) FROM coverage_product WHERE registered_at < ?"),
                arguments: [to]) ?? 0
        var figures: [Figures] = []
        // Read in the order of the (column, gtin, occurred_at) index: a group's products come
        // together and each product's inspections in a row.
        try RowStream.read(
            db,
            sql: """
                SELECT CAST(\(column) AS TEXT), gtin FROM quality_inspection
                WHERE occurred_at >= ? AND occurred_at < ? ORDER BY \(column), gtin, occurred_at
                """, arguments: [from, to]
        ) { rows in
            var group: [UInt8] = []
            var product: [UInt8] = []
            var current: Figures?
            while try rows.next() {
                let key = rows.bytes(0)
                let gtin = rows.bytes(1)
                if current == nil || !sameBytes(key, group) {
                    if let current { figures.append(current) }
                    group = Array(key)
                    product = []
                    current = Figures(
                        group: String(decoding: key, as: UTF8.self), catalogue: catalogue, inspected: 0,
                        inspections: 0, neverInspected: nil, overdue: nil)
                }
                current?.inspections += 1
                if !sameBytes(gtin, product) {
                    current?.inspected += 1
                    product.replaceSubrange(product.indices, with: gtin)
                }
            }
            if let current { figures.append(current) }
        }
        return figures
    }

    /// Every catalogue product in gtin order with its type, registration time, its inspections
    /// in the period and whether it was inspected at all before `to`: the catalogue merged with
    /// the inspections in `(gtin, occurred_at)` order (inspections of products not in the
    /// catalogue are passed over, as a join leaves them out).
    private func forEachProduct(
        _ db: Database,
        _ body: (
            _ gtin: UnsafeBufferPointer<UInt8>, _ type: Int64, _ registeredAt: Int64, _ inPeriod: Int,
            _ inspectedBefore: Bool
        ) throws -> Void
    ) throws {
        try RowStream.read(
            db, sql: "SELECT gtin, product_type, registered_at FROM coverage_product ORDER BY gtin", arguments: []
        ) { products in
            try RowStream.read(
                db,
                sql: """
                    SELECT gtin, occurred_at FROM quality_inspection
                    WHERE occurred_at < ? ORDER BY gtin, occurred_at
                    """, arguments: [to]
            ) { inspections in
                var moreInspections = try inspections.next()
                while try products.next() {
                    let gtin = products.bytes(0)
                    var inPeriod = 0
                    var inspectedBefore = false
                    while moreInspections {
                        let order = binaryOrder(inspections.bytes(0), gtin)
                        if order > 0 { break }
                        if order == 0 {
                            inspectedBefore = true
                            if inspections.int64(1) >= from { inPeriod += 1 }
                        }
                        moreInspections = try inspections.next()
                    }
                    try body(gtin, products.int64(1), products.int64(2), inPeriod, inspectedBefore)
                }
            }
        }
    }

    /// Received products still due at the period's end and not inspected since their reception
    /// (before `to`), counted per `group` (an expression over `c`, the catalogue row, and what
    /// `join` adds).
    private func overdue(_ db: Database, groupedBy group: String, join: String) throws -> [String: Int] {
        let sql = """
            SELECT CAST(\(group) AS TEXT), count(*) FROM coverage_product c \(join)
            WHERE c.inspect_before IS NOT NULL AND c.inspect_before < :due AND c.registered_at < :to
              AND NOT EXISTS (SELECT 1 FROM quality_inspection q WHERE q.gtin = c.gtin
                              AND q.occurred_at >= coalesce(c.received_at, -9223372036854775808)
                              AND q.occurred_at < :to)
            GROUP BY \(group)
            """
        var counts: [String: Int] = [:]
        for row in try Row.fetchAll(db.cachedStatement(sql: sql), arguments: ["due": min(to, Int64.max - 1), "to": to])
        {
            counts[row[0]] = row[1]
        }
        return counts
    }
}
