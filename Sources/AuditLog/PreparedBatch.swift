/// A batch of stream appends encoded on the caller's task, before it reaches the writer thread.
///
/// Each record's bytes are ready except for the two fields only the writer knows (the stream
/// version and occurred-at relative to recorded-at, see ``FrameBuilder``), and the index keys
/// are hashed: the writer thread copies bytes and compares keys instead of encoding strings,
/// and touches no reference-counted value per event.
struct PreparedBatch: Sendable {
    /// One stream append: its keys and where its bytes and events are.
    struct Append: Sendable {
        var expected: ExpectedVersion
        var streamKey: UInt64
        var commandKey: UInt64
        /// The stream id's length-prefixed bytes in ``PreparedBatch/bytes``.
        var streamStart: Int
        var streamEnd: Int
        /// Its events in ``PreparedBatch/events``.
        var firstEvent: Int
        var eventCount: Int
    }

    /// One event: `start..<middle` is the event type and schema version, `middle..<end` the
    /// actor, command id and payload, all in ``PreparedBatch/bytes``.
    struct Event: Sendable {
        var start: Int
        var middle: Int
        var end: Int
        var occurredAt: Int64
    }

    var appends: [Append] = []
    var streamIDs: [String] = []
    var commandIDs: [String] = []
    var events: [Event] = []
    var bytes: [UInt8] = []
    /// The first append that is invalid and why: the whole batch is rejected when the writer reaches it.
    var invalid: (index: Int, error: EventLogError)?

    init(_ batch: [StreamAppend], keyHash: KeyHash) {
        appends.reserveCapacity(batch.count)
        streamIDs.reserveCapacity(batch.count)
        commandIDs.reserveCapacity(batch.count)
        events.reserveCapacity(batch.count)
        bytes.reserveCapacity(
            batch.reduce(0) { total, append in append.events.reduce(total + 64) { $0 + $1.payload.count + 64 } })
        var writer = ByteWriter()
        swap(&writer.bytes, &bytes)
        for (index, append) in batch.enumerated() {
            if invalid == nil, let problem = Self.problem(with: append) { invalid = (index, problem) }
            let streamStart = writer.bytes.count
            writer.string(append.streamID)
            let streamEnd = writer.bytes.count
            let firstEvent = events.count
            if invalid == nil {
                for event in append.events {
                    let start = writer.bytes.count
                    writer.string(event.eventType)
                    writer.varint(UInt64(event.schemaVersion))
                    let middle = writer.bytes.count
                    writer.string(append.actor)
                    CommandIDCodec.encode(append.commandID, into: &writer)
                    writer.blob(event.payload)
                    events.append(
                        Event(
                            start: start, middle: middle, end: writer.bytes.count,
                            occurredAt: event.occurredAt.microsecondsSinceEpoch))
                }
            }
            appends.append(
                Append(
                    expected: append.expected, streamKey: keyHash(append.streamID),
                    commandKey: keyHash(append.commandID),
                    streamStart: streamStart, streamEnd: streamEnd, firstEvent: firstEvent,
                    eventCount: events.count - firstEvent))
            streamIDs.append(append.streamID)
            commandIDs.append(append.commandID)
        }
        swap(&writer.bytes, &bytes)
    }

    /// Raw bytes the events of append `index` take in a frame, near enough to size frames by.
    func rawSize(of index: Int) -> Int {
        let append = appends[index]
        let stream = append.streamEnd - append.streamStart
        guard append.eventCount > 0 else { return 0 }
        let first = events[append.firstEvent].start
        let last = events[append.firstEvent + append.eventCount - 1].end
        return last - first + append.eventCount * (stream + 12)
    }

    private static func problem(with append: StreamAppend) -> EventLogError? {
        if append.events.isEmpty || append.events.count > Int(UInt32.max / 2) {
            return EventLogError(
                .invalidArgument, "an append needs at least one event (pass the events to append)",
                context: ["stream": append.streamID, "commandID": append.commandID])
        }
        if append.streamID.isEmpty || append.commandID.isEmpty {
            return EventLogError(
                .invalidArgument, "an append needs a stream id and a command id (pass non-empty ones)",
                context: ["stream": append.streamID, "commandID": append.commandID])
        }
        return nil
    }
}
