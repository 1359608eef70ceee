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
        while next <= end {
            let last = min(end, next + UInt64(max(chunk, 1)) - 1)
            let records = try source.readRecords(from: next, upTo: last)
            try await destination.appendCopies(records)
            progress?(last)
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
}
