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
        let head = try pool.withConnection { connection -> Head in
            // The head row and every page come from one snapshot: events that other servers
            // commit while the check runs stay out of it (read apart, they would look like
            // rows past the head, damage that is not there).
            do {
                _ = try connection.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger).wait()
            } catch { throw readFailed(error) }
            defer { _ = try? connection.query("COMMIT", logger: logger).wait() }
            let head: Head
            do { head = try Self.readHead(connection, url: url, logger: logger) } catch { throw readFailed(error) }
            pages: while problem == nil {
                let rows: PostgresQueryResult
                do {
                    rows = try connection.query(
                        """
                        SELECT \(unescaped: RowReader.columns), chain_hash FROM itemaudit_events
                        WHERE position >= \(Int64(expected)) ORDER BY position LIMIT \(page)
                        """, logger: logger
                    ).wait()
                } catch { throw readFailed(error) }
                for row in rows {
                    let fields = try RowReader.fields(row)
                    guard fields.position == expected else {
                        fail(
                            expected,
                            "position \(expected) is missing (the next event stored is at \(fields.position)): events were deleted"
                        )
                        break pages
                    }
                    guard fields.position <= head.position else {
                        fail(
                            fields.position,
                            "position \(fields.position) lies past the head row's last position \(head.position)")
                        break pages
                    }
                    let record = RowReader.record(fields)
                    let version = (versions[record.streamID] ?? 0) + 1
                    guard record.streamVersion == version else {
                        fail(
                            record.position,
                            "stream '\(record.streamID)' jumps to version \(record.streamVersion) where \(version) was due"
                        )
                        break pages
                    }
                    var next = chain
                    next.append(record)
                    let stored = row.makeRandomAccess()[11].bytes.map { Array(buffer: $0) }
                    guard stored == next.head else {
                        fail(
                            record.position,
                            "position \(record.position) does not match its chain hash: the row was changed after it was appended"
                        )
                        break pages
                    }
                    chain = next
                    versions[record.streamID] = version
                    bytes += UInt64(record.payloadCount)
                    expected += 1
                }
                progress?(VerificationProgress(checked: expected - 1, total: head.position))
                if rows.count < page { break }
            }
            return head
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
