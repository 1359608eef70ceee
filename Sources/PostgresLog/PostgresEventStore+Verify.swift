import AuditLog
import NIOCore
import PostgresNIO

extension PostgresEventStore {
    /// Checks the whole log in the database: positions gapless from 1, stream versions gapless,
    /// every row's stored chain hash equal to the one recomputed from its content
    /// (``AuditLog/RecordChain``), and the head row equal to the last event and the chain head.
    /// A changed row (an `UPDATE` of its payload, say) fails the chain at its position.
    ///
    /// Progress counts positions (``AuditLog/VerificationProgress/bytesChecked`` is the position reached).
    public func verify(progress: ((VerificationProgress) -> Void)? = nil) throws -> VerificationReport {
        var chain = RecordChain()
        var versions: [String: UInt64] = [:]
        var expected: UInt64 = 1
        var bytes: UInt64 = 0
        var problem: VerificationProblem?
        let page = max(1, options.readPageSize)
        let place = "table itemaudit_events"
        func fail(_ position: UInt64?, _ reason: String) {
            problem = VerificationProblem(place: place, firstPosition: position, lastPosition: position, reason: reason)
        }
        // Read in the snapshot below, before any event is checked.
        var head = Head(position: 0, hash: [], recordedAt: 0)
        /// Checks the next event, noting the first problem found.
        func check(_ fields: RowReader.Fields) {
            guard fields.position == expected else {
                fail(
                    expected,
                    "position \(expected) is missing (the next event stored is at \(fields.position)): events were deleted"
                )
                return
            }
            let record = RowReader.record(fields)
            let version = (versions[record.streamID] ?? 0) + 1
            guard record.streamVersion == version else {
                fail(
                    record.position,
                    "stream '\(record.streamID)' jumps to version \(record.streamVersion) where \(version) was due")
                return
            }
            var next = chain
            next.append(record)
            guard let stored = fields.chainHash, stored.elementsEqual(next.head) else {
                fail(
                    record.position,
                    "position \(record.position) does not match its chain hash: the row was changed after it was appended"
                )
                return
            }
            chain = next
            versions[record.streamID] = version
            bytes += UInt64(record.payloadCount)
            expected += 1
        }
        try pool.withConnection { connection in
            // The head row and every page come from one snapshot: events that other servers
            // commit while the check runs stay out of it (read apart, they would look like
            // rows past the head, damage that is not there).
            do {
                _ = try connection.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger).wait()
            } catch { throw readFailed(error) }
            defer { _ = try? connection.query("COMMIT", logger: logger).wait() }
            do { head = try Self.readHead(connection, url: url, logger: logger) } catch { throw readFailed(error) }
            var from: UInt64 = 1
            while problem == nil && from <= head.position {
                let to = min(head.position, from + UInt64(page) - 1)
                let rows: PostgresQueryResult
                do {
                    rows = try connection.query(
                        RowReader.rangeQuery(from: Int64(from), to: Int64(to), chainHash: true), logger: logger
                    )
                    .wait()
                } catch { throw readFailed(error) }
                try RowReader.forEachEvent(in: rows) { fields in
                    if problem == nil { check(fields) }
                }
                progress?(VerificationProgress(checked: expected - 1, total: head.position))
                // The events stop short of the page's end: a gap, or the end of the events.
                if problem == nil && expected != to + 1 { break }
                from = to + 1
            }
            guard problem == nil else { return }
            let next: Int64?
            do {
                next = try connection.query(
                    "SELECT min(position) FROM itemaudit_events WHERE position >= \(Int64(expected))", logger: logger
                ).wait().first?.decode(Int64?.self)
            } catch { throw readFailed(error) }
            guard let next else { return }
            if next > Int64(head.position) {
                fail(UInt64(next), "position \(next) lies past the head row's last position \(head.position)")
            } else {
                fail(
                    expected,
                    "position \(expected) is missing (the next event stored is at \(next)): events were deleted")
            }
        }
        learn(head)
        let last = expected - 1
        if problem == nil && last != head.position {
            fail(last + 1, "the head row says the log ends at \(head.position) but the events end at \(last)")
        } else if problem == nil && chain.head != head.hash {
            fail(last, "the head row's hash \(RecordChain.hex(head.hash)) is not the chain head \(chain.hex)")
        }
        return VerificationReport(
            eventCount: last, lastPosition: last, headHash: chain.hex, bytes: bytes, problem: problem)
    }
}
