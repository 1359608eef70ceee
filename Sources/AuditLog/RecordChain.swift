import Crypto

/// The canonical hash chain over a log's records: what every store computes, so the same
/// history has the same head hash whatever store holds it and however its appends were batched.
///
/// `head(0)` is 32 zero bytes and `head(n) = SHA-256(head(n-1) ‖ canonicalBytes(record n))`.
/// The canonical bytes of one record (all integers little-endian, strings UTF-8):
///
/// ```
/// offset size field
///      0    8 position (u64)
///      8    8 stream version (u64)
///     16    8 recorded-at, microseconds since the Unix epoch (i64)
///     24    8 occurred-at, microseconds since the Unix epoch (i64)
///     32    2 schema version (u16)
///     34    1 fingerprint flag: 0 none, 1 a 16-byte command fingerprint follows
///     35   16 the command fingerprint (only when the flag is 1)
///      …  4+n stream id: length (u32), bytes
///      …  4+n event type: length (u32), bytes
///      …  4+n actor: length (u32), bytes
///      …  4+n command id (its text): length (u32), bytes
///      …  4+n payload: length (u32), bytes
/// ```
/// The fingerprint is the one a store keeps with the first record of each append
/// (``EventRecord/commandFingerprint``); the other records of the append have none.
public struct RecordChain: Sendable, Hashable {
    /// The head after the last record added: 32 bytes.
    public private(set) var head: [UInt8]

    /// The head of an empty log: 32 zero bytes.
    public static let emptyHead = [UInt8](repeating: 0, count: 32)

    /// A chain continuing from `head` (the empty log's when nil).
    /// - Precondition: `head` holds 32 bytes.
    public init(head: [UInt8]? = nil) {
        let head = head ?? Self.emptyHead
        precondition(head.count == 32, "a chain head is 32 bytes")
        self.head = head
    }

    /// The head as 64 lowercase hex digits (what `verify` prints and auditors write down).
    public var hex: String { Self.hex(head) }

    /// Adds one record: `head = SHA-256(head ‖ canonicalBytes(record))`.
    public mutating func append(_ record: EventRecord) {
        var hasher = CanonicalHasher(head: SHA256Digest.words(head))
        hasher.add(record)
        head = SHA256Digest.array(hasher.head)
    }

    /// The canonical bytes of `record`, laid out as the type's documentation says.
    public static func canonicalBytes(of record: EventRecord) -> [UInt8] {
        var bytes: [UInt8] = []
        appendCanonicalBytes(of: record, to: &bytes)
        return bytes
    }

    /// The head after `record`, given the head before it: `SHA-256(previous ‖ canonicalBytes(record))`.
    public static func head(after previous: [UInt8], _ record: EventRecord) -> [UInt8] {
        var chain = RecordChain(head: previous)
        chain.append(record)
        return chain.head
    }

    /// 64 lowercase hex digits of `bytes`.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The 32 bytes of a head written as 64 hex digits, or nil when `text` is not one.
    public static func bytes(hex text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count == 64 else { return nil }
        func value(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: 64, by: 2) {
            guard let high = value(utf8[index]), let low = value(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func appendCanonicalBytes(of record: EventRecord, to bytes: inout [UInt8]) {
        var writer = CanonicalWriter(bytes: bytes)
        writer.record(record, commandID: record.commandID)
        bytes = writer.bytes
    }
}

/// Builds canonical record bytes (see ``RecordChain``) into a reused buffer.
struct CanonicalWriter {
    var bytes: [UInt8]

    init(bytes: [UInt8] = []) { self.bytes = bytes }

    @inline(__always)
    private mutating func fixed<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// The fixed-size fields at the start of a record's canonical bytes.
    @inline(__always)
    mutating func fixedFields(
        position: UInt64, streamVersion: UInt64, recordedAt: Int64, occurredAt: Int64, schemaVersion: UInt16,
        fingerprint: CommandFingerprint?
    ) {
        fixed(position)
        fixed(streamVersion)
        fixed(recordedAt)
        fixed(occurredAt)
        fixed(schemaVersion)
        if let fingerprint {
            bytes.append(1)
            fingerprint.withBytes { bytes.append(contentsOf: $0) }
        } else {
            bytes.append(0)
        }
    }

    /// A length-prefixed field.
    @inline(__always)
    mutating func field(_ value: UnsafeRawBufferPointer) {
        fixed(UInt32(truncatingIfNeeded: value.count))
        bytes.append(contentsOf: value)
    }

    /// The canonical bytes of `record`, whose command id as text is `commandID` (passed in, as
    /// a caller decoding records usually has it already).
    mutating func record(_ record: EventRecord, commandID: String) {
        fixedFields(
            position: record.position, streamVersion: record.streamVersion,
            recordedAt: record.recordedAt.microsecondsSinceEpoch, occurredAt: record.occurredAt.microsecondsSinceEpoch,
            schemaVersion: record.schemaVersion, fingerprint: record.commandFingerprint)
        var stream = record.streamID
        var type = record.eventType
        var actor = record.actor
        var command = commandID
        stream.withUTF8 { field(UnsafeRawBufferPointer($0)) }
        type.withUTF8 { field(UnsafeRawBufferPointer($0)) }
        actor.withUTF8 { field(UnsafeRawBufferPointer($0)) }
        command.withUTF8 { field(UnsafeRawBufferPointer($0)) }
        record.withPayload { field($0) }
    }
}

/// Advances the canonical chain record by record with one reused buffer: what the writer,
/// recovery and verification use (``RecordChain`` is the public face of the same rule).
struct CanonicalHasher {
    /// The head after the last record added.
    private(set) var head: SHA256Digest.Bytes
    private var writer = CanonicalWriter(bytes: [])

    init(head: SHA256Digest.Bytes) {
        self.head = head
        writer.bytes.reserveCapacity(1024)
    }

    /// Adds a record decoded from the log (its command id text passed in when already decoded).
    mutating func add(_ record: EventRecord, commandID: String? = nil) {
        begin()
        writer.record(record, commandID: commandID ?? record.commandID)
        finish()
    }

    /// Adds a record given field by field (strings as UTF-8, the command id as text).
    @inline(__always)
    mutating func add(
        position: UInt64, streamVersion: UInt64, recordedAt: Int64, occurredAt: Int64, schemaVersion: UInt16,
        fingerprint: CommandFingerprint?, stream: UnsafeRawBufferPointer, eventType: UnsafeRawBufferPointer,
        actor: UnsafeRawBufferPointer, commandID: UnsafeRawBufferPointer, payload: UnsafeRawBufferPointer
    ) {
        begin()
        writer.fixedFields(
            position: position, streamVersion: streamVersion, recordedAt: recordedAt, occurredAt: occurredAt,
            schemaVersion: schemaVersion, fingerprint: fingerprint)
        writer.field(stream)
        writer.field(eventType)
        writer.field(actor)
        writer.field(commandID)
        writer.field(payload)
        finish()
    }

    @inline(__always)
    private mutating func begin() {
        writer.bytes.removeAll(keepingCapacity: true)
        withUnsafeBytes(of: head) { writer.bytes.append(contentsOf: $0) }
    }

    @inline(__always)
    private mutating func finish() {
        var hasher = SHA256()
        writer.bytes.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        head = SHA256Digest.bytes(of: hasher.finalize())
    }
}

extension SHA256Digest {
    /// The 32 bytes of a head given as an array.
    static func words(_ bytes: [UInt8]) -> Bytes {
        var words = zero
        withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(start: bytes, count: 32)) }
        return words
    }

    /// The 32 bytes of a head as an array.
    static func array(_ words: Bytes) -> [UInt8] {
        withUnsafeBytes(of: words) { Array($0) }
    }
}
