import CLZ4
import Chronology
import Foundation

/// Collects records for one frame and seals them: LZ4 body, CRC32C and the canonical chain
/// head after its last record (each record's digest, computed by its caller, is linked into the
/// chain as it is added, see ``RecordChain``).
///
/// A record inside a frame's raw (uncompressed) bytes, all lengths as varints:
/// stream id, stream version, event type, schema version, occurred-at minus the previous
/// record's occurred-at (zigzag; the first record's minus the frame's recorded-at), actor,
/// command id (see ``CommandIDCodec``), payload. Position and recorded-at come from the frame header.
struct FrameBuilder {
    private(set) var raw: ByteWriter
    let firstPosition: UInt64
    private(set) var count: UInt32 = 0
    let recordedAt: Int64
    /// Occurred-at of the last record added: the next one is stored as a difference from it.
    private var previousOccurredAt: Int64
    /// The canonical chain through the last record added.
    private(set) var chain: CanonicalHasher

    /// A frame whose first record follows the canonical chain head `head`, with room for about
    /// `rawCapacity` bytes of records before its buffer grows (and is copied).
    init(firstPosition: UInt64, recordedAt: Int64, head: SHA256Digest.Bytes, rawCapacity: Int = 64 << 10) {
        raw = ByteWriter(capacity: rawCapacity)
        self.firstPosition = firstPosition
        self.recordedAt = recordedAt
        previousOccurredAt = recordedAt
        chain = CanonicalHasher(head: head)
    }

    /// The canonical head after the last record added.
    var head: SHA256Digest.Bytes { chain.head }

    var rawCount: Int { raw.bytes.count }

    /// Adds the events of append `index` of a prepared batch, the first at `firstVersion`:
    /// the batch's encoded bytes with the version and occurred-at filled in.
    mutating func add(_ batch: PreparedAppends, append index: Int, firstVersion: UInt64) {
        let append = batch.appends[index]
        var version = firstVersion
        let bytes = UnsafeRawPointer(batch.bytes.baseAddress!)
        let stream = UnsafeRawBufferPointer(
            start: bytes + append.streamStart, count: append.streamEnd - append.streamStart)
        for offset in append.firstEvent..<(append.firstEvent + append.eventCount) {
            let event = batch.events[offset]
            raw.bytes.append(contentsOf: stream)
            raw.varint(version)
            raw.bytes.append(
                contentsOf: UnsafeRawBufferPointer(start: bytes + event.start, count: event.middle - event.start))
            raw.zigzag(event.occurredAt &- previousOccurredAt)
            previousOccurredAt = event.occurredAt
            raw.bytes.append(
                contentsOf: UnsafeRawBufferPointer(start: bytes + event.middle, count: event.end - event.middle))
            chain.link(
                position: firstPosition + UInt64(count) + UInt64(offset - append.firstEvent), streamVersion: version,
                recordedAt: recordedAt, digest: event.digest)
            version += 1
        }
        count += UInt32(append.eventCount)
    }

    /// Appends the sealed frame to `output` and returns the canonical head after its last record
    /// (the next frame's starting head).
    func seal(into output: inout [UInt8]) -> SHA256Digest.Bytes {
        let start = output.count
        let bound = Int(LZ4_compressBound(Int32(raw.bytes.count)))
        output.append(contentsOf: repeatElement(0, count: FrameHeader.size + bound))
        let compressed = raw.bytes.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { target in
                Int(
                    LZ4_compress_default(
                        source.baseAddress?.assumingMemoryBound(to: CChar.self),
                        (target.baseAddress! + start + FrameHeader.size).assumingMemoryBound(to: CChar.self),
                        Int32(source.count), Int32(bound)
                    )
                )
            }
        }
        output.removeLast(bound - compressed)
        return output.withUnsafeMutableBytes { buffer in
            let frame = UnsafeMutableRawBufferPointer(rebasing: buffer[start...])
            frame.storeBytes(of: FrameHeader.magic.littleEndian, toByteOffset: 0, as: UInt32.self)
            frame.storeBytes(of: UInt32(compressed).littleEndian, toByteOffset: 8, as: UInt32.self)
            frame.storeBytes(of: UInt32(raw.bytes.count).littleEndian, toByteOffset: 12, as: UInt32.self)
            frame.storeBytes(of: firstPosition.littleEndian, toByteOffset: 16, as: UInt64.self)
            frame.storeBytes(of: count.littleEndian, toByteOffset: 24, as: UInt32.self)
            frame.storeBytes(of: UInt32(0), toByteOffset: 28, as: UInt32.self)
            frame.storeBytes(of: recordedAt.littleEndian, toByteOffset: 32, as: Int64.self)
            let hash = chain.head
            withUnsafeBytes(of: hash) { UnsafeMutableRawBufferPointer(rebasing: frame[40..<72]).copyMemory(from: $0) }
            let crc = FrameHeader.checksum(frame: UnsafeRawBufferPointer(frame))
            frame.storeBytes(of: crc.littleEndian, toByteOffset: 4, as: UInt32.self)
            return hash
        }
    }

    /// Seals the frames of one group, in order, into one buffer, with where each frame starts.
    ///
    /// Each frame is compressed on its own (its head comes from the chain, not from the bytes), so
    /// a group of several frames is compressed on several threads: compression is a large part of
    /// the writer thread's work, and the writer is what bounds a stream of large appends.
    static func seal(_ frames: [FrameBuilder]) -> (bytes: [UInt8], starts: [Int]) {
        var output: [UInt8] = []
        guard frames.count > 1 else {
            output.reserveCapacity(FrameHeader.size + Int(LZ4_compressBound(Int32(frames[0].rawCount))))
            _ = frames[0].seal(into: &output)
            return (output, [0])
        }
        // Each iteration reads its own frame and writes its own slot, and all are done on return.
        nonisolated(unsafe) let sealed = UnsafeMutableBufferPointer<[UInt8]>.allocate(capacity: frames.count)
        sealed.initialize(repeating: [])
        defer { sealed.deinitialize().deallocate() }
        DispatchQueue.concurrentPerform(iterations: frames.count) { index in
            _ = frames[index].seal(into: &sealed[index])
        }
        output.reserveCapacity(sealed.reduce(0) { $0 + $1.count })
        var starts: [Int] = []
        for frame in sealed {
            starts.append(output.count)
            output.append(contentsOf: frame)
        }
        return (output, starts)
    }
}

/// Decompresses frames and decodes their records, reusing one buffer and sharing repeated
/// strings (stream ids, event types, actors) instead of allocating each again.
struct FrameDecoder {
    private var raw: [UInt8] = []
    // Stream ids repeat in runs; event types and actors come from small sets.
    private var streams = StringTable()
    private var types = StringTable()
    private var actors = StringTable()
    private let templates = RecordTemplates()

    init() {}

    /// The buffer the last frame was decompressed into by ``decode(frame:header:_:)``; reused
    /// when no record read from it is still alive.
    private var shared: FrameBuffer?

    /// Calls `body` for each record of a CRC-checked frame, in order. The records' command ids
    /// and payloads are views into one buffer per frame: no allocation per record for them.
    /// - Throws: ``FrameDecodingError`` when the body does not decompress or decode exactly.
    mutating func decode(
        frame: UnsafeRawBufferPointer, header: FrameHeader, _ body: (EventRecord) throws -> Void
    ) throws {
        let rawCount = Int(header.rawLength)
        if !isKnownUniquelyReferenced(&shared) || shared!.bytes.count < rawCount {
            shared = FrameBuffer(capacity: max(rawCount, 64 << 10))
        }
        let buffer = shared!
        try Self.decompress(frame: frame, header: header, into: buffer.bytes)
        try decode(decompressed: buffer, header: header, body)
    }

    /// Calls `body` for each record of a frame already decompressed into `buffer` (from offset 0).
    /// The records' command ids and payloads are views into `buffer`.
    /// - Throws: ``FrameDecodingError`` when the records do not decode exactly.
    mutating func decode(
        decompressed buffer: FrameBuffer, header: FrameHeader, _ body: (EventRecord) throws -> Void
    ) throws {
        let rawCount = Int(header.rawLength)
        let base = UnsafeRawPointer(buffer.bytes.baseAddress!)
        // Record values reused along the frame, one per event type: only changed fields are
        // stored again, so delivering a record costs no reference counting unless `body` keeps it.
        let records = templates.records
        let memos = templates.memos
        templates.reset()
        // The template in use is held in `record` (its slot holds the spare value meanwhile).
        var record = templates.takeSpare()
        var held = -1
        defer {
            if held >= 0 { swap(&record, &records[held]) }
            templates.returnSpare(record)
            templates.releaseFrame()
        }
        let recordedAt = Timestamp(microsecondsSinceEpoch: header.recordedAt)
        // The current stream id and actor, and tokens that change whenever they do.
        var stream = ""
        var streamSlot = -1
        var streamToken = 0
        var actor = ""
        var actorSlot = -1
        var actorToken = 0
        // The template of the current event type and the token of its string.
        var template = RecordTemplates.unshared
        var typeToken = 0
        var unsharedType = ""
        var unsharedToken = 0
        // Empty bytes count as seen: the strings above start empty.
        var lastStream = UnsafeRawBufferPointer(start: nil, count: 0)
        var lastType = lastStream
        var lastActor = lastStream
        var reader = ByteReader(UnsafeRawBufferPointer(start: base, count: rawCount))
        var position = header.firstPosition
        var occurredAt = header.recordedAt
        for _ in 0..<header.recordCount {
            let streamBytes: UnsafeRawBufferPointer
            let version: UInt64
            let typeBytes: UnsafeRawBufferPointer
            let schema: UInt64
            let actorBytes: UnsafeRawBufferPointer
            let command: UnsafeRawBufferPointer
            let payload: UnsafeRawBufferPointer
            do {
                streamBytes = try reader.slice()
                version = try reader.varint()
                typeBytes = try reader.slice()
                schema = try reader.varint()
                occurredAt &+= try reader.zigzag()
                actorBytes = try reader.slice()
                command = try CommandIDCodec.slice(&reader)
                payload = try reader.slice()
                guard schema <= UInt64(UInt16.max) else { throw ByteReaderError() }
            } catch {
                throw FrameDecodingError(reason: "record at position \(position) is cut short or malformed")
            }
            if !Self.same(streamBytes, &lastStream) {
                streams.assign(streamBytes, to: &stream, slot: &streamSlot)
                streamToken += 1
            }
            if !Self.same(actorBytes, &lastActor) {
                actors.assign(actorBytes, to: &actor, slot: &actorSlot)
                actorToken += 1
            }
            if !Self.same(typeBytes, &lastType) {
                if let slot = types.intern(typeBytes) {
                    template = slot
                    typeToken = types.generation(slot)
                } else {
                    template = RecordTemplates.unshared
                    unsharedToken += 1
                    typeToken = unsharedToken
                    unsharedType = String(decoding: typeBytes, as: UTF8.self)
                }
            }
            if template != held {
                // Swapped, not copied: a copy would retain and release every field.
                if held >= 0 { swap(&record, &records[held]) }
                swap(&record, &records[template])
                held = template
            }
            let memo = memos + template
            if !memo.pointee.inFrame {
                record.tail.owner = .frame(buffer)
                record.recordedAt = recordedAt
                memo.pointee.inFrame = true
            }
            if memo.pointee.type != typeToken {
                record.eventType = template == RecordTemplates.unshared ? unsharedType : types.value(template)
                memo.pointee.type = typeToken
            }
            if memo.pointee.stream != streamToken {
                record.streamID = stream
                memo.pointee.stream = streamToken
            }
            if memo.pointee.actor != actorToken {
                record.actor = actor
                memo.pointee.actor = actorToken
            }
            record.position = position
            record.streamVersion = version
            record.schemaVersion = UInt16(schema)
            record.occurredAt = Timestamp(microsecondsSinceEpoch: occurredAt)
            record.tail.command = UInt32(command.baseAddress! - base)
            record.tail.commandCount = UInt32(command.count)
            record.tail.payloadStart = UInt32(payload.count == 0 ? 0 : payload.baseAddress! - base)
            record.tail.payloadLength = UInt32(payload.count)
            try body(record)
            position += 1
        }
        guard reader.remaining == 0 else {
            throw FrameDecodingError(reason: "\(reader.remaining) bytes follow the last record")
        }
    }

    /// True when `bytes` equal `last`; otherwise `last` becomes `bytes`.
    @inline(__always)
    private static func same(_ bytes: UnsafeRawBufferPointer, _ last: inout UnsafeRawBufferPointer) -> Bool {
        let count = bytes.count
        if count == last.count {
            if count == 0 { return true }
            let a = bytes.baseAddress!
            let b = last.baseAddress!
            if count >= 8 && count <= 16 {
                if a.loadUnaligned(as: UInt64.self) == b.loadUnaligned(as: UInt64.self)
                    && a.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                        == b.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                {
                    return true
                }
            } else if memcmp(a, b, count) == 0 {
                return true
            }
        }
        last = bytes
        return false
    }

    /// Calls `body` with an in-place view of each record of a CRC-checked frame, in order.
    mutating func decodeViews(
        frame: UnsafeRawBufferPointer, header: FrameHeader, _ body: (EventRecordView) throws -> Void
    ) throws {
        let rawCount = Int(header.rawLength)
        if raw.count < rawCount { raw = [UInt8](repeating: 0, count: rawCount) }
        try raw.withUnsafeMutableBytes { target in
            try Self.decompress(frame: frame, header: header, into: target)
            try Self.decodeRecords(UnsafeRawBufferPointer(rebasing: target[0..<rawCount]), header: header, body)
        }
    }

    /// Decompresses a CRC-checked frame's body into `target`, which holds at least its raw length.
    static func decompress(
        frame: UnsafeRawBufferPointer, header: FrameHeader, into target: UnsafeMutableRawBufferPointer
    ) throws {
        let rawCount = Int(header.rawLength)
        let written = LZ4_decompress_safe(
            frame.baseAddress!.advanced(by: FrameHeader.size).assumingMemoryBound(to: CChar.self),
            target.baseAddress!.assumingMemoryBound(to: CChar.self),
            Int32(header.bodyLength), Int32(rawCount)
        )
        guard Int(written) == rawCount else {
            throw FrameDecodingError(reason: "the LZ4 body does not decompress to \(rawCount) bytes")
        }
    }

    private static func decodeRecords(
        _ buffer: UnsafeRawBufferPointer, header: FrameHeader, _ body: (EventRecordView) throws -> Void
    ) throws {
        var cursor = RecordCursor(buffer, header: header)
        while let view = try cursor.next() { try body(view) }
    }
}

/// Walks the records of a decompressed frame as in-place views, in order.
struct RecordCursor {
    private var reader: ByteReader
    private let recordedAt: Timestamp
    private var position: UInt64
    private var occurredAt: Int64
    private var remaining: UInt32

    init(_ buffer: UnsafeRawBufferPointer, header: FrameHeader) {
        reader = ByteReader(buffer)
        recordedAt = Timestamp(microsecondsSinceEpoch: header.recordedAt)
        position = header.firstPosition
        occurredAt = header.recordedAt
        remaining = header.recordCount
    }

    /// The next record; nil after the last, once the frame's bytes are used up exactly.
    /// - Throws: ``FrameDecodingError`` when a record is cut short or bytes follow the last one.
    mutating func next() throws -> EventRecordView? {
        guard remaining > 0 else {
            guard reader.remaining == 0 else {
                throw FrameDecodingError(reason: "\(reader.remaining) bytes follow the last record")
            }
            return nil
        }
        let view: EventRecordView
        do {
            let stream = try reader.slice()
            let version = try reader.varint()
            let type = try reader.slice()
            let schema = try reader.varint()
            let occurred = try reader.zigzag()
            let actor = try reader.slice()
            let command = try CommandIDCodec.slice(&reader)
            let payload = try reader.slice()
            guard schema <= UInt64(UInt16.max) else { throw ByteReaderError() }
            occurredAt &+= occurred
            view = EventRecordView(
                position: position, streamVersion: version, schemaVersion: UInt16(schema), recordedAt: recordedAt,
                occurredAt: Timestamp(microsecondsSinceEpoch: occurredAt), streamBytes: stream,
                typeBytes: type, actorBytes: actor, commandBytes: command, payloadBytes: payload)
        } catch {
            throw FrameDecodingError(reason: "record at position \(position) is cut short or malformed")
        }
        position += 1
        remaining -= 1
        return view
    }
}

/// A frame whose CRC matched but whose body does not decode: written by a broken writer.
struct FrameDecodingError: Error {
    var reason: String
}
