import Chronology
import GRDB

/// Inspections and distinct products per day, week or month: one pass over the inspections in
/// `(gtin, occurred_at)` order, so each product's periods come in order and a product counts
/// once per period without the sort SQLite's `count(DISTINCT)` and its date functions per row
/// cost (about half of a dashboard's time).
///
/// The periods are named as ``PeriodUnit/sql(seconds:)`` names them (a test compares the two).
struct CoveragePeriods {
    /// One period's figures, its name not yet made.
    struct Totals {
        var products = 0
        var inspections = 0

        @inline(__always)
        mutating func add(newProduct: Bool) {
            inspections += 1
            if newProduct { products += 1 }
        }
    }

    let unit: PeriodUnit

    /// Per period key (days since the epoch of the period's first day, or months since year 0
    /// for a month), the figures of the finished inspections in `[from, to)`, in key order; nil
    /// when an inspection lies outside the years 0–9999, which SQLite's dates do not name.
    func totals(_ db: Database, from: Int64, to: Int64) throws -> [(key: Int64, totals: Totals)]? {
        // Read in the order of `coverage_inspection_product` (no sort); not `INDEXED BY` it, so a
        // database whose catch-up has not yet made the index still answers.
        var byKey = KeyedTotals()
        let complete = try RowStream.read(
            db,
            sql: """
                SELECT occurred_at, gtin FROM quality_inspection
                WHERE occurred_at >= ? AND occurred_at < ? ORDER BY gtin, occurred_at
                """, arguments: [from, to]
        ) { rows -> Bool in
            var previous: [UInt8] = []
            previous.reserveCapacity(32)
            var previousKey = Int64.min
            while try rows.next() {
                guard let key = key(microseconds: rows.int64(0)) else { return false }
                let gtin = rows.bytes(1)
                let sameProduct = sameBytes(gtin, previous)
                if !sameProduct {
                    previous.removeAll(keepingCapacity: true)
                    previous.append(contentsOf: gtin)
                }
                byKey.add(key, newProduct: !sameProduct || key != previousKey)
                previousKey = key
            }
            return true
        }
        guard complete else { return nil }
        return byKey.periods
    }

    /// Totals by period key, in an array from the lowest key seen: keys are days or months, so a
    /// history's span is a few hundred of them, and no inspection is hashed as a dictionary key
    /// would be (most of the pass's own time). Keys spread wider than ``widestSpan`` (a log
    /// reaching centuries back) move to a dictionary.
    struct KeyedTotals {
        static let widestSpan: Int64 = 100_000
        private var lowest: Int64 = 0
        private var dense: [Totals] = []
        private var sparse: [Int64: Totals]?

        /// Counts one inspection in period `key`.
        @inline(__always)
        mutating func add(_ key: Int64, newProduct: Bool) {
            if sparse == nil {
                if dense.isEmpty {
                    lowest = key
                    dense.append(Totals())
                } else if key < lowest {
                    // At least doubled downwards, so a run of ever lower keys costs linear time.
                    let room = max(lowest - key, Int64(dense.count))
                    let newLowest = max(lowest - room, lowest + Int64(dense.count) - Self.widestSpan)
                    if newLowest <= key {
                        dense.insert(contentsOf: repeatElement(Totals(), count: Int(lowest - newLowest)), at: 0)
                        lowest = newLowest
                    }
                } else if key - lowest >= Int64(dense.count), key - lowest < Self.widestSpan {
                    dense.append(contentsOf: repeatElement(Totals(), count: Int(key - lowest) - dense.count + 1))
                }
                if key >= lowest, key - lowest < Int64(dense.count) {
                    dense[Int(key - lowest)].add(newProduct: newProduct)
                    return
                }
                sparse = Dictionary(uniqueKeysWithValues: periods.map { ($0.key, $0.totals) })
                dense = []
            }
            sparse?[key, default: Totals()].add(newProduct: newProduct)
        }

        /// The periods that hold an inspection, in key order.
        var periods: [(key: Int64, totals: Totals)] {
            if let sparse { return sparse.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }
            return dense.indices.filter { dense[$0].inspections > 0 }.map { (lowest + Int64($0), dense[$0]) }
        }
    }

    /// The period of a time in µs since the epoch (seconds truncated as `occurred_at / 1000000`
    /// truncates), nil outside the years 0–9999.
    @inline(__always)
    func key(microseconds: Int64) -> Int64? {
        let day = Timestamp(microsecondsSinceEpoch: microseconds / 1_000_000 * 1_000_000).daysSinceEpoch
        // 0000-01-01 and 9999-12-31, days since the epoch.
        guard day >= -719_528 && day <= 2_932_896 else { return nil }
        return unit.key(day: day)
    }

    /// A period's name: `2026-01-05` for a day or a week's Monday, `2026-01` for a month (only a
    /// week can start before the year 0, which 0000-01-01 was a Saturday of: SQLite's `date()`
    /// and ``CivilDate`` name it `-0001-12-27`).
    func name(_ key: Int64) -> String { unit.name(key: key) }
}
