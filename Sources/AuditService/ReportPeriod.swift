import AuditLog
import Chronology

/// The `--from` / `--to` period of a report (`to` exclusive).
public struct ReportPeriod: Sendable, Hashable {
    /// The first instant counted, if bounded.
    public var from: Timestamp?
    /// The first instant no longer counted, if bounded.
    public var to: Timestamp?

    /// A period from its bounds.
    public init(from: Timestamp?, to: Timestamp?) {
        self.from = from
        self.to = to
    }

    /// Why the period cannot hold an answer at `now`: a bound in the future (the log cannot say
    /// what it will hold), or `from` not before `to` (an empty period); nil when it is fine.
    public func problem(now: Timestamp) -> String? {
        for (name, bound) in [("--from", from), ("--to", to)] {
            if let bound, bound > now {
                return
                    "\(name) \(bound.iso8601) is in the future: now is \(now.iso8601) (give a time up to now, or omit \(name))"
            }
        }
        if let from, let to, from >= to {
            return "--from \(from.iso8601) must be before --to \(to.iso8601) "
                + "(--to is exclusive: give a later --to or an earlier --from)"
        }
        return nil
    }
}
