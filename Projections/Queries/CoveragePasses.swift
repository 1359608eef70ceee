import GRDB
import Inspection

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
        // Locations numbered by their bytes, as the event decoder numbers attribute paths: no
        // `String` per row.
        var locations = AttributePathNumbers()
        var counts: [Counts] = []
        // Listings and the period's inspections, both in gtin order: an inspection counts where
        // its product is listed at its location. `here` holds the locations of the current
        // product's inspections (a product has a few).
        try RowStream.read(
            db, sql: "SELECT gtin, location FROM coverage_listing ORDER BY gtin, location", arguments: []
        ) { listings in
            try RowStream.read(
                db,
                sql: """
                    SELECT gtin, location FROM quality_inspection
                    WHERE occurred_at >= ? AND occurred_at < ? ORDER BY gtin, occurred_at
                    """, arguments: [from, to]
            ) { inspections in
                var moreInspections = try inspections.next()
                var product: [UInt8] = []
                var here: [Int32] = []
                while try listings.next() {
                    let gtin = listings.bytes(0)
                    if !sameBytes(gtin, product) {
                        product.replaceSubrange(product.indices, with: gtin)
                        here.removeAll(keepingCapacity: true)
                        while moreInspections {
                            let order = binaryOrder(inspections.bytes(0), gtin)
                            if order > 0 { break }
                            if order == 0 {
                                here.append(locations.number(UnsafeRawBufferPointer(inspections.bytes(1))))
                            }
                            moreInspections = try inspections.next()
                        }
                    }
                    let location = Int(locations.number(UnsafeRawBufferPointer(listings.bytes(1))))
                    while counts.count <= location { counts.append(Counts()) }
                    counts[location].listed += 1
                    let name = String(decoding: gtin, as: UTF8.self)
                    if late.contains(name) { counts[location].late += 1 }
                    if seen.contains(name) { counts[location].seen += 1 }
                    let inspectedHere = here.count { Int($0) == location }
                    if inspectedHere > 0 {
                        counts[location].inspected += 1
                        counts[location].inspections += inspectedHere
                    }
                }
            }
        }
        let names = locations.takeNew()
        let due = try overdue(db, groupedBy: "s.location", join: "JOIN coverage_listing s ON s.gtin = c.gtin")
        return counts.indices.filter { counts[$0].listed > counts[$0].late }
            .sorted { names[$0].utf8.lexicographicallyPrecedes(names[$1].utf8) }
            .map { number in
                let counts = counts[number]
                let catalogue = counts.listed - counts.late
                return Figures(
                    group: names[number], catalogue: catalogue, inspected: counts.inspected,
                    inspections: counts.inspections, neverInspected: catalogue - counts.seen,
                    overdue: due[names[number]] ?? 0)
            }
    }

    /// Per inspection mode or inspector (`column`), in its order (`numeric` for mode's numbers):
    /// the catalogue registered before `to`, the distinct products inspected in the period and
    /// the inspections.
    func byColumn(_ db: Database, _ column: String, numeric: Bool) throws -> [Figures] {
        let catalogue =
            try Int.fetchOne(
                db.cachedStatement(sql: "SELECT count(*) FROM coverage_product WHERE registered_at < ?"),
                arguments: [to]) ?? 0
        // Groups numbered by their bytes, as in ``byLocation(_:_:)``.
        var groups = AttributePathNumbers()
        var inspected: [Int] = []
        var inspections: [Int] = []
        // Per group, the number of the product it last counted: a product's inspections come
        // together in gtin order, so each group counts it once.
        var lastCounted: [Int] = []
        try RowStream.read(
            db,
            sql: """
                SELECT gtin, CAST(\(column) AS TEXT) FROM quality_inspection
                WHERE occurred_at >= ? AND occurred_at < ? ORDER BY gtin, occurred_at
                """, arguments: [from, to]
        ) { rows in
            var product: [UInt8] = []
            var products = 0
            while try rows.next() {
                let gtin = rows.bytes(0)
                if products == 0 || !sameBytes(gtin, product) {
                    product.replaceSubrange(product.indices, with: gtin)
                    products += 1
                }
                let group = Int(groups.number(UnsafeRawBufferPointer(rows.bytes(1))))
                if group == inspections.count {
                    inspected.append(0)
                    inspections.append(0)
                    lastCounted.append(0)
                }
                inspections[group] += 1
                if lastCounted[group] != products {
                    inspected[group] += 1
                    lastCounted[group] = products
                }
            }
        }
        let names = groups.takeNew()
        return names.indices.sorted { left, right in
            if numeric, let left = Int64(names[left]), let right = Int64(names[right]) { return left < right }
            return names[left].utf8.lexicographicallyPrecedes(names[right].utf8)
        }.map { group in
            Figures(
                group: names[group], catalogue: catalogue, inspected: inspected[group],
                inspections: inspections[group], neverInspected: nil, overdue: nil)
        }
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
