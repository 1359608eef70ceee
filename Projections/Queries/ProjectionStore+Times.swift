import Chronology

extension ProjectionStore {
    /// A stored time as the queries answer it: the tables keep times as integers, µs since the
    /// epoch (they sort and compare in SQL), and every query result carries a ``Timestamp``.
    @inline(__always)
    static func time(_ microseconds: Int64) -> Timestamp { Timestamp(microsecondsSinceEpoch: microseconds) }
}
