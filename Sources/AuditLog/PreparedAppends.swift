/// A batch of stream appends encoded on the caller's task, before it reaches the writer thread.
///
/// Each record's bytes are ready except for the two fields only the writer knows (the stream
/// version and occurred-at relative to recorded-at, see ``FrameBuilder``), each record's chain
/// digest is computed (``RecordChain``: the writer links it with one small hash), and the index
/// keys are hashed: the writer thread copies bytes and compares keys instead of encoding
/// strings or hashing content, and touches no reference-counted value per event (it reads the
/// plain buffers below).
final class PreparedAppends: @unchecked Sendable {
    // @unchecked: every stored property is set in init and never changes; the buffers are
    // written only there and freed in deinit, when no other reference exists.
    /// One stream append: its keys and where its bytes and events are.
    struct Append: Sendable {
        var expected: ExpectedVersion
        var streamKey: UInt64
        var commandKey: UInt64
        /// The stream id's length-prefixed bytes in ``PreparedAppends/bytes``; its UTF-8 from `streamIDStart`.
        var streamStart: Int
        var streamIDStart: Int
        var streamEnd: Int
        /// The command id's UTF-8 bytes in ``PreparedAppends/bytes``.
        var commandStart: Int
        var commandEnd: Int
        /// Its events in ``PreparedAppends/events``.
        var firstEvent: Int
        var eventCount: Int
        /// The command's fingerprint, stored in its first record.
        var fingerprint: CommandFingerprint?
    }

    /// One event: `start..<middle` is the event type and schema version, `middle..<end` the
    /// actor, command id and payload, all in ``PreparedAppends/bytes``.
    struct Event: Sendable {
        var start: Int
        var middle: Int
        var end: Int
        var occurredAt: Int64
        /// SHA-256 of the record's content bytes (``RecordChain``).
        var digest: SHA256Digest.Bytes
    }

    let appends: UnsafeMutableBufferPointer<Append>
    let events: UnsafeMutableBufferPointer<Event>
    let bytes: UnsafeMutableRawBufferPointer
    let count: Int
    /// The first append that is invalid and why: the whole batch is rejected when the writer reaches it.
    let invalid: (index: Int, error: EventLogError)?

    init(_ batch: [StreamAppend], keyHash: KeyHash) {
        var appends: [Append] = []
        var events: [Event] = []
        var invalid: (index: Int, error: EventLogError)?
        appends.reserveCapacity(batch.count)
        events.reserveCapacity(batch.count)
        var capacity = 0
        for index in batch.indices {
            capacity += 96 + batch[index].streamID.utf8.count * 2 + batch[index].commandID.utf8.count
            for event in batch[index].events.indices {
                capacity +=
                    batch[index].events[event].payload.count + 64 + batch[index].actor.utf8.count
                    + batch[index].commandID.utf8.count
            }
        }
        var writer = ByteWriter(capacity: capacity)
        var content = ContentWriter()
        // Fields are read in place through buffer pointers (a StreamAppend or an event read out
        // of an array would be copied, retaining each of its strings and arrays).
        batch.withUnsafeBufferPointer { batch in
            for index in batch.indices {
                if invalid == nil, let problem = Self.problem(in: batch, at: index) { invalid = (index, problem) }
                let streamStart = writer.bytes.count
                let streamKey = Self.withUTF8(batch[index].streamID) { stream in
                    writer.varint(UInt64(stream.count))
                    writer.bytes.append(contentsOf: stream)
                    return keyHash(stream)
                }
                let streamEnd = writer.bytes.count
                let commandStart = writer.bytes.count
                let commandKey = Self.withUTF8(batch[index].commandID) { command in
                    writer.bytes.append(contentsOf: command)
                    return keyHash(command)
                }
                let commandEnd = writer.bytes.count
                let firstEvent = events.count
                if invalid == nil {
                    batch[index].events.withUnsafeBufferPointer { proposed in
                        // The actor and the encoded command id are the same for every event of the append
                        // (the first also carries the command's fingerprint).
                        let fingerprint = batch[index].commandFingerprint
                        var shared = 0..<0
                        // Where the UTF-8 of the stream id, the actor and the command id are in
                        // `writer.bytes`, for the content bytes the digest hashes.
                        let streamID = (streamEnd - batch[index].streamID.utf8.count)..<streamEnd
                        var actor = 0..<0
                        for event in proposed.indices {
                            let start = writer.bytes.count
                            let type = Self.withUTF8(proposed[event].eventType) { type in
                                writer.varint(UInt64(type.count))
                                writer.bytes.append(contentsOf: type)
                                return (writer.bytes.count - type.count)..<writer.bytes.count
                            }
                            writer.varint(UInt64(proposed[event].schemaVersion))
                            let middle = writer.bytes.count
                            let stamped = event == 0 ? fingerprint : nil
                            if shared.isEmpty {
                                actor = Self.withUTF8(batch[index].actor) { actor in
                                    writer.varint(UInt64(actor.count))
                                    writer.bytes.append(contentsOf: actor)
                                    return (writer.bytes.count - actor.count)..<writer.bytes.count
                                }
                                Self.withUTF8(batch[index].commandID) {
                                    CommandIDCodec.encode($0, fingerprint: stamped, into: &writer)
                                }
                                if stamped == nil { shared = middle..<writer.bytes.count }
                            } else {
                                writer.repeatBytes(shared)
                            }
                            let occurredAt = proposed[event].occurredAt.microsecondsSinceEpoch
                            content.begin(
                                occurredAt: occurredAt, schemaVersion: proposed[event].schemaVersion,
                                fingerprint: stamped)
                            writer.bytes.withUnsafeBytes { bytes in
                                content.field(UnsafeRawBufferPointer(rebasing: bytes[streamID]))
                                content.field(UnsafeRawBufferPointer(rebasing: bytes[type]))
                                content.field(UnsafeRawBufferPointer(rebasing: bytes[actor]))
                                content.field(UnsafeRawBufferPointer(rebasing: bytes[commandStart..<commandEnd]))
                            }
                            proposed[event].payload.withUnsafeBytes { payload in
                                writer.varint(UInt64(payload.count))
                                writer.bytes.append(contentsOf: payload)
                                content.field(payload)
                            }
                            events.append(
                                Event(
                                    start: start, middle: middle, end: writer.bytes.count, occurredAt: occurredAt,
                                    digest: content.digest()))
                        }
                    }
                }
                appends.append(
                    Append(
                        expected: batch[index].expected, streamKey: streamKey, commandKey: commandKey,
                        streamStart: streamStart, streamIDStart: streamEnd - batch[index].streamID.utf8.count,
                        streamEnd: streamEnd, commandStart: commandStart, commandEnd: commandEnd,
                        firstEvent: firstEvent, eventCount: events.count - firstEvent,
                        fingerprint: batch[index].commandFingerprint))
            }
        }
        self.appends = .allocate(capacity: max(appends.count, 1))
        _ = self.appends.initialize(from: appends)
        self.events = .allocate(capacity: max(events.count, 1))
        _ = self.events.initialize(from: events)
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(writer.bytes.count, 1), alignment: 8)
        writer.bytes.withUnsafeBytes { bytes.copyMemory(from: $0) }
        self.bytes = bytes
        count = batch.count
        self.invalid = invalid
    }

    /// Calls `body` with the UTF-8 bytes of `text`, in place when it is stored contiguously.
    @inline(__always)
    private static func withUTF8<R>(_ text: String, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        if let result = text.utf8.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) {
            return result
        }
        var copy = text
        return copy.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }

    deinit {
        appends.deallocate()
        events.deallocate()
        bytes.deallocate()
    }

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

    private static func problem(in batch: UnsafeBufferPointer<StreamAppend>, at index: Int) -> EventLogError? {
        let count = batch[index].events.count
        guard
            count == 0 || count > Int(UInt32.max / 2) || batch[index].streamID.isEmpty
                || batch[index].commandID.isEmpty
        else { return nil }
        let append = batch[index]
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
