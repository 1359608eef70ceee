/// Copies a whole log from one store to another, keeping positions, times, actors, command ids
/// and fingerprints, so both end with the same canonical head (``RecordChain``).
public enum EventStoreCopy {
    /// What a copy did.
    public struct Report: Sendable, Hashable {
        /// Records copied.
        public var events: UInt64
        /// The canonical head of the source, and of the destination after the copy (equal).
        public var headHash: String
    }

    /// Copies every record of `source` to `destination`, which must be empty, `chunk` records
    /// per write; `progress` is told the last position copied after each write.
    /// - Throws: ``EventLogError`` `.invalidArgument` when the destination is not empty,
    ///   `.corruptFrame` when the heads differ after the copy, or what the stores throw.
    public static func copy(
        from source: any EventStore, to destination: any EventStore, chunk: Int = 20_000,
        progress: ((UInt64) -> Void)? = nil
    ) async throws -> Report {
        guard destination.lastPosition == 0 else {
            throw EventLogError(
                .invalidArgument,
                "the destination \(destination.location) already holds \(destination.lastPosition) events (copy into an empty store)",
                context: ["store": destination.location])
        }
        let end = source.lastPosition
        let expected = source.headHash
        var next: UInt64 = 1
        // Records of an append cut by a chunk's end wait for the rest of it: an append is copied
        // whole, or its command id would come back as a duplicate for its second part.
        var carried: [EventRecord] = []
        while next <= end {
            let last = min(end, next + UInt64(max(chunk, 1)) - 1)
            var records = carried + (try source.readRecords(from: next, upTo: last))
            carried = []
            if last < end, let cut = lastAppendStart(records) {
                // The last append may go on in the next chunk: it waits (all of a chunk that is one append).
                carried = Array(records[cut...])
                records.removeSubrange(cut...)
            }
            if let copied = records.last?.position {
                try await destination.appendCopies(records)
                progress?(copied)
            }
            next = last + 1
        }
        guard destination.lastPosition == end, destination.headHash == expected else {
            throw EventLogError(
                .corruptFrame,
                "the copy in \(destination.location) ends at position \(destination.lastPosition) with head \(destination.headHash), the source at \(end) with head \(expected) (verify the source, then copy again into an empty store)",
                context: ["store": destination.location])
        }
        return Report(events: end, headHash: expected)
    }

    /// The index of the first record of the last append in `records` (an append: consecutive
    /// records of one stream, command id and actor, only its first with a fingerprint).
    static func lastAppendStart(_ records: [EventRecord]) -> Int? {
        guard var start = records.indices.last else { return nil }
        while start > 0, records[start].commandFingerprint == nil {
            let previous = records[start - 1]
            let record = records[start]
            guard previous.streamID == record.streamID, previous.commandID == record.commandID,
                previous.actor == record.actor
            else { break }
            start -= 1
        }
        return start
    }
}
