/// A batch of stream appends encoded on the caller's task, before it reaches the writer thread.
///
/// Each record's bytes are ready except for the two fields only the writer knows (the stream
/// version and occurred-at relative to recorded-at, see ``FrameBuilder``), and the index keys
/// are hashed: the writer thread copies bytes and compares keys instead of encoding strings,
/// and touches no reference-counted value per event (it reads the plain buffers below).
final class PreparedBatch: @unchecked Sendable {
    // @unchecked: every stored property is set in init and never changes; the buffers are
    // written only there and freed in deinit, when no other reference exists.
    /// One stream append: its keys and where its bytes and events are.
    struct Append: Sendable {
        var expected: ExpectedVersion
        var streamKey: UInt64
        var commandKey: UInt64
        /// The stream id's length-prefixed bytes in ``PreparedBatch/bytes``; its UTF-8 from `streamIDStart`.
        var streamStart: Int
        var streamIDStart: Int
        var streamEnd: Int
        /// The command id's UTF-8 bytes in ``PreparedBatch/bytes``.
        var commandStart: Int
        var commandEnd: Int
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

    let appends: UnsafeMutableBufferPointer<Append>
    let events: UnsafeMutableBufferPointer<Event>
    let bytes: UnsafeMutableRawBufferPointer
    let streamIDs: [String]
    let commandIDs: [String]
    /// The first append that is invalid and why: the whole batch is rejected when the writer reaches it.
    let invalid: (index: Int, error: EventLogError)?

    init(_ batch: [StreamAppend], keyHash: KeyHash) {
        var appends: [Append] = []
        var events: [Event] = []
        var invalid: (index: Int, error: EventLogError)?
        appends.reserveCapacity(batch.count)
        events.reserveCapacity(batch.count)
        var writer = ByteWriter(
            capacity: batch.reduce(0) { total, append in append.events.reduce(total + 96) { $0 + $1.payload.count + 64 }
            })
        for (index, append) in batch.enumerated() {
            if invalid == nil, let problem = Self.problem(with: append) { invalid = (index, problem) }
            let streamStart = writer.bytes.count
            writer.string(append.streamID)
            let streamEnd = writer.bytes.count
            let commandStart = writer.bytes.count
            var commandID = append.commandID
            commandID.withUTF8 { writer.bytes.append(contentsOf: $0) }
            let commandEnd = writer.bytes.count
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
                    commandKey: keyHash(append.commandID), streamStart: streamStart,
                    streamIDStart: streamEnd - append.streamID.utf8.count, streamEnd: streamEnd,
                    commandStart: commandStart, commandEnd: commandEnd, firstEvent: firstEvent,
                    eventCount: events.count - firstEvent))
        }
        self.appends = .allocate(capacity: max(appends.count, 1))
        _ = self.appends.initialize(from: appends)
        self.events = .allocate(capacity: max(events.count, 1))
        _ = self.events.initialize(from: events)
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(writer.bytes.count, 1), alignment: 8)
        writer.bytes.withUnsafeBytes { bytes.copyMemory(from: $0) }
        self.bytes = bytes
        streamIDs = batch.map(\.streamID)
        commandIDs = batch.map(\.commandID)
        self.invalid = invalid
    }

    deinit {
        appends.deallocate()
        events.deallocate()
        bytes.deallocate()
    }

    var count: Int { streamIDs.count }

    /// The UTF-8 bytes of append `index`'s stream id.
    @inline(__always)
    func streamID(_ index: Int) -> UnsafeRawBufferPointer {
        let append = appends[index]
        return UnsafeRawBufferPointer(rebasing: bytes[append.streamIDStart..<append.streamEnd])
    }

    /// The UTF-8 bytes of append `index`'s command id.
    @inline(__always)
    func commandID(_ index: Int) -> UnsafeRawBufferPointer {
        let append = appends[index]
        return UnsafeRawBufferPointer(rebasing: bytes[append.commandStart..<append.commandEnd])
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
