import Chronology

/// The promises every log store keeps, whatever holds its records: the file log (``EventLog``)
/// and a store on a database server share this interface, so the application and the
/// conformance tests talk to either.
///
/// - Positions are global, gapless from 1, and in commit order: a reader that has seen
///   position n has seen every position before it.
/// - An append is durable before it returns, and all-or-nothing per ``StreamAppend``.
/// - An append states the stream version it expects (``ExpectedVersion``); a mismatch throws
///   ``EventLogError`` `.versionConflict` and writes nothing.
/// - A command id is appended once: sending it again with the same fingerprint (or none) returns
///   the original positions as a duplicate; with another fingerprint it throws `.commandIDReused`.
/// - ``headHash`` is the canonical chain head (``RecordChain``) over every record up to
///   ``lastPosition``: the same history gives the same head in every store.
///
/// Reads are synchronous and call `body` in position order; a store on a server may block the
/// calling thread while it fetches (callers run them off the event loops).
public protocol EventStore: AnyObject, Sendable {
    /// Where the store is, for messages: a directory path, or a URL without its password.
    var location: String { get }

    /// The last durable position this store instance knows of (0 when empty). A store shared by
    /// several servers learns of the others' appends through ``refresh()``.
    var lastPosition: UInt64 { get }

    /// The canonical chain head (``RecordChain``) at ``lastPosition``, as 64 hex digits.
    var headHash: String { get }

    /// The recorded-at time of the last event, or nil for an empty store.
    var lastRecordedAt: Timestamp? { get }

    /// A sentence about what opening the store repaired, or nil when nothing was (for a `note:`).
    var openingNote: String? { get }

    /// Appends to many streams at once, durably: every stream append is checked first and, if
    /// any conflicts, nothing is written and the error is thrown.
    /// - Returns: one result per stream append, in order (duplicates answered with the original).
    /// - Throws: ``EventLogError`` `.versionConflict`, `.commandIDReused`, `.invalidArgument`,
    ///   `.notWritable`, `.io`, `.diskFull`.
    func append(contentsOf streamAppends: [StreamAppend]) async throws -> [AppendResult]

    /// Appends records read from another store exactly as they are there (positions, stream
    /// versions, times, actors, command ids, fingerprints), so the canonical head comes out the
    /// same: for `store copy` into an empty store nothing else writes to. The records continue
    /// the store (the first at ``lastPosition`` + 1) in position order.
    /// - Throws: ``EventLogError`` `.invalidArgument` when they do not continue the store.
    func appendCopies(_ records: [EventRecord]) async throws

    /// What `commandID` appended, or nil when it was never appended.
    func appendedCommand(_ commandID: String) async throws -> AppendedCommand?

    /// The stream's version (0 when it has no events) and how far its events reach.
    func streamState(of stream: String) async throws -> StreamState

    /// Catches up with appends made by other processes sharing the store; returns ``lastPosition``.
    func refresh() async throws -> UInt64

    /// The last position recorded at or before `time` (0 when nothing was): as-of reads.
    func lastPosition(asOfRecordedAt time: Timestamp) throws -> UInt64

    /// Calls `body` with every record from `start` through `end` (inclusive; ``lastPosition``
    /// when nil), in order.
    func forEachRecord(from start: UInt64, upTo end: UInt64?, _ body: (EventRecord) throws -> Void) throws

    /// Like ``forEachRecord(from:upTo:_:)`` with in-place views (valid during the call only).
    func forEachRecordView(from start: UInt64, upTo end: UInt64?, _ body: (EventRecordView) throws -> Void) throws

    /// Calls `body` with in-place views (valid during the call only) of the events of `stream`
    /// from `version` on, in order.
    func forEachRecordView(
        inStream stream: String, fromVersion version: UInt64, _ body: (EventRecordView) throws -> Void
    ) throws

    /// Checks every record: structure, positions, stream versions and the canonical chain (and
    /// whatever integrity the store adds, such as the file log's frame CRCs). A damaged store is a
    /// report with a ``VerificationReport/problem``, not an error.
    func verify(progress: ((VerificationProgress) -> Void)?) throws -> VerificationReport

    /// Waits for appends under way and releases the store; appends afterwards fail with `.notWritable`.
    func close() throws
}

extension EventStore {
    /// Appends `events` to `stream` if it is at the `expected` version, durably.
    public func append(
        to stream: String, expected: ExpectedVersion, commandID: String, actor: String, events: [ProposedEvent],
        commandFingerprint: CommandFingerprint? = nil
    ) async throws -> AppendResult {
        try await append(contentsOf: [
            StreamAppend(
                streamID: stream, expected: expected, commandID: commandID, actor: actor, events: events,
                commandFingerprint: commandFingerprint)
        ])[0]
    }

    /// ``forEachRecord(from:upTo:_:)`` from the first position, or up to the last one.
    public func forEachRecord(from start: UInt64 = 1, _ body: (EventRecord) throws -> Void) throws {
        try forEachRecord(from: start, upTo: nil, body)
    }

    /// ``forEachRecord(from:upTo:_:)`` from the first position.
    public func forEachRecord(upTo end: UInt64?, _ body: (EventRecord) throws -> Void) throws {
        try forEachRecord(from: 1, upTo: end, body)
    }

    /// ``forEachRecordView(from:upTo:_:)`` from `start` to the last position.
    /// Calls `body` with the events of `stream` from `version` on, in order.
    public func forEachRecord(
        inStream stream: String, fromVersion version: UInt64, _ body: (EventRecord) throws -> Void
    ) throws {
        try forEachRecordView(inStream: stream, fromVersion: version) { try body($0.record) }
    }

    public func forEachRecordView(from start: UInt64 = 1, _ body: (EventRecordView) throws -> Void) throws {
        try forEachRecordView(from: start, upTo: nil, body)
    }

    /// ``forEachRecordView(from:upTo:_:)`` from the first position.
    public func forEachRecordView(upTo end: UInt64?, _ body: (EventRecordView) throws -> Void) throws {
        try forEachRecordView(from: 1, upTo: end, body)
    }

    /// Every record of positions `start...end` (``lastPosition`` when nil), in an array.
    public func readRecords(from start: UInt64 = 1, upTo end: UInt64? = nil) throws -> [EventRecord] {
        var records: [EventRecord] = []
        try forEachRecord(from: start, upTo: end) { records.append($0) }
        return records
    }
}

/// What a store holds for a command id already appended: the original result and fingerprint.
public struct AppendedCommand: Sendable, Hashable {
    /// The stream the command appended to.
    public var streamID: String
    /// The positions of its events (contiguous).
    public var positions: ClosedRange<UInt64>
    /// The stream's version after its events.
    public var streamVersion: UInt64
    /// The fingerprint stored with it (nil when it was appended without one).
    public var fingerprint: CommandFingerprint?

    public init(
        streamID: String, positions: ClosedRange<UInt64>, streamVersion: UInt64, fingerprint: CommandFingerprint?
    ) {
        self.streamID = streamID
        self.positions = positions
        self.streamVersion = streamVersion
        self.fingerprint = fingerprint
    }

    /// Whether sending the id again with `fingerprint` is the same command: true unless both
    /// fingerprints are known and differ (then it is another command under a used id).
    public func isSameCommand(_ fingerprint: CommandFingerprint?) -> Bool {
        guard let stored = self.fingerprint, let fingerprint else { return true }
        return stored == fingerprint
    }

    /// The answer an append of this id with `fingerprint` gets: the original result as a
    /// duplicate, or the `.commandIDReused` error.
    public func answer(to fingerprint: CommandFingerprint?, commandID: String) throws -> AppendResult {
        guard isSameCommand(fingerprint) else { throw EventLogError.commandIDReused(commandID, positions: positions) }
        return AppendResult(positions: positions, streamVersion: streamVersion, wasDuplicate: true)
    }
}

/// A stream's version and how far its events reach in the log.
public struct StreamState: Sendable, Hashable {
    /// The number of events in the stream (0 when it has none).
    public var version: UInt64
    /// No event of the stream lies after this position (0 when it has none). Exact in a store
    /// that keeps it per stream; the file log answers the last position of the write that held
    /// the stream's last event, which is never before it.
    public var reachesUpTo: UInt64

    public init(version: UInt64, reachesUpTo: UInt64) {
        self.version = version
        self.reachesUpTo = reachesUpTo
    }
}
