import AuditLog
import Chronology

/// The `--from` / `--to` period of a report, in microseconds since the epoch (`to` exclusive).
public struct ReportPeriod: Sendable, Hashable {
    /// The first instant counted, if bounded.
    public var from: Int64?
    /// The first instant no longer counted, if bounded.
    public var to: Int64?

    /// A period from its bounds.
    public init(from: Int64?, to: Int64?) {
        self.from = from
        self.to = to
    }

    /// Why the period cannot hold an answer at `now`: a bound in the future (the log cannot say
    /// what it will hold), or `from` not before `to` (an empty period); nil when it is fine.
    public func problem(now: Timestamp) -> String? {
        for (name, bound) in [("--from", from), ("--to", to)] {
            if let bound, bound > now.microsecondsSinceEpoch {
                let time = Timestamp(microsecondsSinceEpoch: bound).iso8601
                return
                    "\(name) \(time) is in the future: now is \(now.iso8601) (give a time up to now, or omit \(name))"
            }
        }
        if let from, let to, from >= to {
            let (start, end) = (Timestamp(microsecondsSinceEpoch: from), Timestamp(microsecondsSinceEpoch: to))
            return "--from \(start.iso8601) must be before --to \(end.iso8601) "
                + "(--to is exclusive: give a later --to or an earlier --from)"
        }
        return nil
    }
}
