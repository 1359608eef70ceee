import CLibCrypto
import Crypto

/// The canonical hash chain over a log's records: what every store computes, so the same
/// history has the same head hash whatever store holds it and however its appends were batched.
///
/// Two steps per record. The appending caller knows a record's content and hashes it into the
/// record's digest; the writer, which assigns position, stream version and recorded-at, links
/// the digest into the chain with one small hash (so the large hash stays out of its critical
/// section):
///
/// - `digest(n) = SHA-256(content bytes of record n)`
/// - `head(0)` is 32 zero bytes; `head(n) = SHA-256(link bytes of record n)`
///
/// All integers little-endian, strings UTF-8:
///
/// ```
/// content bytes                                  link bytes (88)
/// offset size field                              offset size field
///      0    8 occurred-at, µs since epoch (i64)       0   32 head(n-1)
///      8    2 schema version (u16)                   32    8 position (u64)
///     10    1 fingerprint flag: 0 none, 1 follows    40    8 stream version (u64)
///     11   16 the command fingerprint (flag 1)       48    8 recorded-at, µs since epoch (i64)
///      …  4+n stream id: length (u32), bytes         56   32 digest(n)
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

    /// Adds one record: `head = SHA-256(link bytes)`, the link bytes holding its digest.
    public mutating func append(_ record: EventRecord) {
        var hasher = CanonicalHasher(head: SHA256Digest.words(head))
        hasher.add(record)
        head = SHA256Digest.array(hasher.head)
    }

    /// The content bytes of `record` (what its digest hashes), laid out as the type's documentation says.
    public static func contentBytes(of record: EventRecord) -> [UInt8] {
        var writer = ContentWriter()
        writer.record(record, commandID: record.commandID)
        return writer.bytes
    }

    /// The digest of `record`: SHA-256 of its content bytes.
    public static func digest(of record: EventRecord) -> [UInt8] {
        var writer = ContentWriter()
        writer.record(record, commandID: record.commandID)
        return SHA256Digest.array(writer.digest())
    }

    /// The head after `record`, given the head before it.
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
}

/// Builds a record's content bytes (see ``RecordChain``) into a reused buffer and hashes them.
struct ContentWriter {
    private(set) var bytes: [UInt8] = []

    init() {}

    @inline(__always)
    private mutating func fixed<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Starts a record: the fixed-size fields at the start of its content bytes.
    @inline(__always)
    mutating func begin(occurredAt: Int64, schemaVersion: UInt16, fingerprint: CommandFingerprint?) {
        bytes.removeAll(keepingCapacity: true)
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

    /// The digest of the record written since ``begin(occurredAt:schemaVersion:fingerprint:)``.
    @inline(__always)
    func digest() -> SHA256Digest.Bytes {
        bytes.withUnsafeBytes { SHA256Digest.hash($0) }
    }

    /// Writes the content bytes of `record`, whose command id as text is `commandID` (passed
    /// in, as a caller decoding records usually has it already).
    mutating func record(_ record: EventRecord, commandID: String) {
        begin(
            occurredAt: record.occurredAt.microsecondsSinceEpoch, schemaVersion: record.schemaVersion,
            fingerprint: record.commandFingerprint)
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

/// Advances the canonical chain record by record: the writer links digests its callers
/// computed; recovery and verification digest each decoded record first (``RecordChain`` is
/// the public face of the same rule).
struct CanonicalHasher {
    /// The head after the last record added.
    private(set) var head: SHA256Digest.Bytes
    private var content = ContentWriter()

    init(head: SHA256Digest.Bytes) { self.head = head }

    /// Adds a record decoded from the log (its command id text passed in when already decoded).
    mutating func add(_ record: EventRecord, commandID: String? = nil) {
        content.record(record, commandID: commandID ?? record.commandID)
        link(
            position: record.position, streamVersion: record.streamVersion,
            recordedAt: record.recordedAt.microsecondsSinceEpoch, digest: content.digest())
    }

    /// Adds a record by its digest and the fields the writer assigns: one hash of the 88 link bytes.
    @inline(__always)
    mutating func link(position: UInt64, streamVersion: UInt64, recordedAt: Int64, digest: SHA256Digest.Bytes) {
        let previous = head
        head = withUnsafeTemporaryAllocation(byteCount: 88, alignment: 8) { bytes in
            withUnsafeBytes(of: previous) { bytes.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: 32) }
            bytes.storeBytes(of: position.littleEndian, toByteOffset: 32, as: UInt64.self)
            bytes.storeBytes(of: streamVersion.littleEndian, toByteOffset: 40, as: UInt64.self)
            bytes.storeBytes(of: recordedAt.littleEndian, toByteOffset: 48, as: Int64.self)
            withUnsafeBytes(of: digest) { (bytes.baseAddress! + 56).copyMemory(from: $0.baseAddress!, byteCount: 32) }
            return SHA256Digest.hash(UnsafeRawBufferPointer(bytes))
        }
    }
}

extension SHA256Digest {
    /// SHA-256 of `bytes`, by the system libcrypto into a context on the stack (see `CLibCrypto`).
    @inline(__always)
    static func hash(_ bytes: UnsafeRawBufferPointer) -> Bytes {
        var result = zero
        withUnsafeMutableBytes(of: &result) { target in
            itemaudit_sha256(bytes.baseAddress, bytes.count, target.baseAddress!.assumingMemoryBound(to: UInt8.self))
        }
        return result
    }

    /// The 32 bytes of a head given as an array.
    static func words(_ bytes: [UInt8]) -> Bytes {
        var words = zero
        withUnsafeMutableBytes(of: &words) { target in
            bytes.withUnsafeBytes { target.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0.prefix(32))) }
        }
        return words
    }

    /// The 32 bytes of a head as an array.
    static func array(_ words: Bytes) -> [UInt8] {
        withUnsafeBytes(of: words) { Array($0) }
    }
}
