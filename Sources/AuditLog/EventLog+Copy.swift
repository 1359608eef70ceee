extension EventLog {
    /// Appends records read from another store exactly as they are there: positions, stream
    /// versions, recorded-at and occurred-at times, actors, command ids and fingerprints, so the
    /// canonical head comes out the same. For `store copy` into a log nothing else appends to.
    ///
    /// The records must continue this log (the first at ``lastPosition`` + 1, gapless, recorded-at
    /// never before the log's last) and come in position order. Consecutive records of one stream
    /// and command id form one append (a fingerprint starts a new one), each written with the
    /// stream version it had in the source.
    /// - Throws: ``EventLogError`` `.invalidArgument` when the records do not continue the log
    ///   (nothing written), `.versionConflict` when a stream version does not follow, or what
    ///   ``append(contentsOf:)`` throws.
    public func appendCopies(_ records: [EventRecord]) async throws {
        guard !records.isEmpty else { return }
        var expectedPosition = lastPosition + 1
        var lastTime = lastRecordedAt?.microsecondsSinceEpoch ?? .min
        for record in records {
            guard record.position == expectedPosition, record.streamVersion > 0,
                record.recordedAt.microsecondsSinceEpoch >= lastTime
            else {
                throw EventLogError(
                    .invalidArgument,
                    "copied record at position \(record.position) does not continue the log at position \(expectedPosition - 1) (copy into an empty log, in position order)",
                    context: ["position": String(record.position), "file": directory.path])
            }
            expectedPosition += 1
            lastTime = record.recordedAt.microsecondsSinceEpoch
        }
        // One write per recorded-at time: the source's group commits, with their time.
        var start = 0
        while start < records.count {
            var end = start + 1
            while end < records.count, records[end].recordedAt == records[start].recordedAt { end += 1 }
            let group = records[start..<end]
            let appends = Self.appends(copying: group)
            let results = try await append(
                contentsOf: appends.map(\.append), recordedAt: records[start].recordedAt.microsecondsSinceEpoch)
            for ((_, range), result) in zip(appends, results) where result.positions != range || result.wasDuplicate {
                throw EventLogError(
                    .invalidArgument,
                    "copied records \(range.lowerBound)-\(range.upperBound) landed at \(result.positions.lowerBound)-\(result.positions.upperBound)\(result.wasDuplicate ? " as a duplicate command id" : "") (copy into an empty log that nothing else writes to)",
                    context: ["position": String(range.lowerBound), "file": directory.path])
            }
            start = end
        }
    }

    /// The stream appends that reproduce `records`, with the positions each must land at.
    private static func appends(copying records: ArraySlice<EventRecord>) -> [(
        append: StreamAppend, positions: ClosedRange<UInt64>
    )] {
        var result: [(append: StreamAppend, positions: ClosedRange<UInt64>)] = []
        var index = records.startIndex
        while index < records.endIndex {
            let head = records[index]
            var end = index + 1
            while end < records.endIndex, records[end].commandFingerprint == nil,
                records[end].streamID == head.streamID, records[end].commandID == head.commandID,
                records[end].actor == head.actor
            {
                end += 1
            }
            let events = records[index..<end].map {
                ProposedEvent(
                    eventType: $0.eventType, schemaVersion: $0.schemaVersion, occurredAt: $0.occurredAt,
                    payload: $0.payload)
            }
            result.append(
                (
                    StreamAppend(
                        streamID: head.streamID, expected: .exactly(head.streamVersion - 1), commandID: head.commandID,
                        actor: head.actor, events: events, commandFingerprint: head.commandFingerprint),
                    head.position...records[end - 1].position
                ))
            index = end
        }
        return result
    }
}
