import Chronology

/// One event as the log stores it: the envelope the log assigns plus the domain's opaque payload.
public struct EventRecord: Sendable, Hashable {
    /// Global position in the log: gapless, from 1.
    public var position: UInt64
    /// The stream (aggregate) the event belongs to, such as `batch-17`.
    public var streamID: String
    /// Version of the stream after this event: 1 for its first event, gapless.
    public var streamVersion: UInt64
    /// The event's type name, such as `ProductCollected`.
    public var eventType: String
    /// Version of the event type's schema the payload was written with.
    public var schemaVersion: UInt16
    /// When the server recorded the event (the log's clock; never decreases along the log).
    public var recordedAt: Timestamp
    /// When it happened on the device (the device's clock).
    public var occurredAt: Timestamp
    /// Who caused it: an inspector, a steward, a system process.
    public var actor: String
    /// The command id and payload: owned, or a view into the decompressed frame they were read
    /// from (so decoding a record allocates nothing for them).
    var tail: RecordTail

    /// The command that produced it; appending a command id again appends nothing.
    public var commandID: String {
        get { tail.commandID }
        set { tail = .owned(commandID: newValue, payload: payload, fingerprint: commandFingerprint) }
    }
    /// The fingerprint of the command's content, kept in the first record of each append (nil in
    /// the others): what tells a resent command from another command under the same id.
    public var commandFingerprint: CommandFingerprint? { tail.commandFingerprint }
    /// The event's data; the domain owns its encoding. A copy when the record was read from the
    /// log: use ``withPayload(_:)`` or ``payloadCount`` to read it in place.
    public var payload: [UInt8] {
        get { tail.payload }
        set { tail = .owned(commandID: commandID, payload: newValue, fingerprint: commandFingerprint) }
    }

    /// A record with every field given.
    public init(
        position: UInt64, streamID: String, streamVersion: UInt64, eventType: String, schemaVersion: UInt16,
        recordedAt: Timestamp, occurredAt: Timestamp, actor: String, commandID: String, payload: [UInt8],
        commandFingerprint: CommandFingerprint? = nil
    ) {
        self.position = position
        self.streamID = streamID
        self.streamVersion = streamVersion
        self.eventType = eventType
        self.schemaVersion = schemaVersion
        self.recordedAt = recordedAt
        self.occurredAt = occurredAt
        self.actor = actor
        self.tail = .owned(commandID: commandID, payload: payload, fingerprint: commandFingerprint)
    }

    init(
        position: UInt64, streamID: String, streamVersion: UInt64, eventType: String, schemaVersion: UInt16,
        recordedAt: Timestamp, occurredAt: Timestamp, actor: String, tail: RecordTail
    ) {
        self.position = position
        self.streamID = streamID
        self.streamVersion = streamVersion
        self.eventType = eventType
        self.schemaVersion = schemaVersion
        self.recordedAt = recordedAt
        self.occurredAt = occurredAt
        self.actor = actor
        self.tail = tail
    }

    /// The payload's length in bytes, without copying it.
    public var payloadCount: Int { tail.payloadCount }

    /// Calls `body` with the payload bytes in place, without copying them (valid only during the call).
    public func withPayload<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try tail.withPayload(body)
    }

    public static func == (a: EventRecord, b: EventRecord) -> Bool {
        a.position == b.position && a.streamID == b.streamID && a.streamVersion == b.streamVersion
            && a.eventType == b.eventType && a.schemaVersion == b.schemaVersion && a.recordedAt == b.recordedAt
            && a.occurredAt == b.occurredAt && a.actor == b.actor && a.tail.commandIDEqual(b.tail)
            && a.withPayload { x in b.withPayload { y in x.elementsEqual(y) } }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(position)
        hasher.combine(streamID)
        hasher.combine(streamVersion)
        hasher.combine(eventType)
        hasher.combine(actor)
        hasher.combine(commandID)
        withPayload { hasher.combine(bytes: $0) }
    }
}

/// An event a command wants to append; the log adds position, stream version and recorded-at.
public struct ProposedEvent: Sendable, Hashable {
    /// The event's type name, such as `ProductCollected`.
    public var eventType: String
    /// Version of the event type's schema the payload was written with.
    public var schemaVersion: UInt16
    /// When it happened on the device.
    public var occurredAt: Timestamp
    /// The event's data, encoded by the domain.
    public var payload: [UInt8]

    public init(eventType: String, schemaVersion: UInt16 = 1, occurredAt: Timestamp, payload: [UInt8]) {
        self.eventType = eventType
        self.schemaVersion = schemaVersion
        self.occurredAt = occurredAt
        self.payload = payload
    }
}

/// What an append expects the stream's version to be (optimistic concurrency).
public enum ExpectedVersion: Sendable, Hashable {
    /// Append whatever the stream's version is.
    case any
    /// The stream must not exist yet.
    case noStream
    /// The stream must be exactly at this version (0 means it must not exist yet).
    case exactly(UInt64)

    /// Whether a stream currently at `version` (0 = no stream) satisfies this expectation.
    public func accepts(currentVersion version: UInt64) -> Bool {
        switch self {
        case .any: return true
        case .noStream: return version == 0
        case .exactly(let expected): return expected == version
        }
    }
}

/// One stream's part of an append: for ``EventLog/append(to:expected:commandID:actor:events:)``
/// and, many at once, ``EventLog/append(contentsOf:)``.
public struct StreamAppend: Sendable, Hashable {
    public var streamID: String
    public var expected: ExpectedVersion
    public var commandID: String
    public var actor: String
    public var events: [ProposedEvent]
    /// The fingerprint of the command's content: stored with the id, so that the same id sent
    /// again with another fingerprint is refused (`.commandIDReused`) instead of answered as a
    /// duplicate. Nil when the caller cannot tell (then any resend counts as a duplicate).
    public var commandFingerprint: CommandFingerprint?

    public init(
        streamID: String, expected: ExpectedVersion, commandID: String, actor: String, events: [ProposedEvent],
        commandFingerprint: CommandFingerprint? = nil
    ) {
        self.streamID = streamID
        self.expected = expected
        self.commandID = commandID
        self.actor = actor
        self.events = events
        self.commandFingerprint = commandFingerprint
    }
}

/// What a durable append produced.
public struct AppendResult: Sendable, Hashable {
    /// The positions of the appended events (contiguous); for a duplicate, the original ones.
    public var positions: ClosedRange<UInt64>
    /// The stream's version after the events (for a duplicate: after the original events).
    public var streamVersion: UInt64
    /// True when the command id had been appended before: nothing was written this time.
    public var wasDuplicate: Bool

    public init(positions: ClosedRange<UInt64>, streamVersion: UInt64, wasDuplicate: Bool) {
        self.positions = positions
        self.streamVersion = streamVersion
        self.wasDuplicate = wasDuplicate
    }
}
