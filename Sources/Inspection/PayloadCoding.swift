import Chronology

/// Writes an event payload: LEB128 varints, zig-zag signed integers, length-prefixed UTF-8.
///
/// The format has no field tags: each event type and version fixes its field order, so decoding
/// is a straight read. A new field means a new schema version (and an upcaster for the old one).
public struct PayloadWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8]

    /// An empty writer with room for `capacity` bytes.
    public init(capacity: Int = 64) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// An unsigned integer as a varint.
    @inline(__always)
    public mutating func uint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// A signed integer, zig-zag encoded.
    @inline(__always)
    public mutating func int(_ value: Int64) { uint(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }

    /// A non-negative count or code.
    @inline(__always)
    public mutating func count(_ value: Int) { uint(UInt64(value)) }

    /// A string: byte count then UTF-8.
    public mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            uint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    /// An optional string: a presence byte, then the string.
    public mutating func optionalString(_ value: String?) {
        if let value {
            bytes.append(1)
            string(value)
        } else {
            bytes.append(0)
        }
    }

    /// A time in microseconds.
    public mutating func time(_ value: Timestamp) { int(value.microsecondsSinceEpoch) }

    /// An optional time.
    public mutating func optionalTime(_ value: Timestamp?) {
        if let value {
            bytes.append(1)
            time(value)
        } else {
            bytes.append(0)
        }
    }

    /// A code (an enum stored as its integer raw value).
    public mutating func code<Code: RawRepresentable>(_ value: Code) where Code.RawValue == Int {
        count(value.rawValue)
    }

    /// A list of strings.
    public mutating func strings(_ values: [String]) {
        count(values.count)
        for value in values { string(value) }
    }
}

/// A payload that cannot be decoded: truncated, or holding a value its type does not allow.
public struct PayloadDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong.
    public var message: String
    /// The event type and version being decoded, when known.
    public var eventType: String
    /// The byte offset in the payload where decoding stopped.
    public var offset: Int
    /// True when the event type is not one this build knows (another module's or a newer build's).
    public var isUnknownType: Bool

    /// An error at `offset`.
    public init(_ message: String, eventType: String = "", offset: Int = 0, isUnknownType: Bool = false) {
        self.message = message
        self.eventType = eventType
        self.offset = offset
        self.isUnknownType = isUnknownType
    }

    public var description: String {
        "cannot decode \(eventType.isEmpty ? "event" : eventType) payload at byte \(offset): \(message) "
            + "(the log record is damaged or was written by a newer version; run `itemaudit verify`)"
    }
}

/// Reads what ``PayloadWriter`` wrote, from borrowed memory; every read checks the bounds.
public struct PayloadReader {
    @usableFromInline let base: UnsafePointer<UInt8>?
    @usableFromInline let end: Int
    /// The offset of the next byte to read.
    public private(set) var offset: Int

    /// A reader over `buffer`; valid only while the buffer is.
    public init(_ buffer: UnsafeRawBufferPointer) {
        base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
        end = buffer.count
        offset = 0
    }

    /// Whether every byte has been read.
    public var isAtEnd: Bool { offset == end }

    @inline(__always)
    private mutating func byte() throws(PayloadDecodingError) -> UInt8 {
        guard offset < end, let base else { throw PayloadDecodingError("payload ends early", offset: offset) }
        let value = base[offset]
        offset += 1
        return value
    }

    /// An unsigned varint.
    @inline(__always)
    public mutating func uint() throws(PayloadDecodingError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try byte()
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
            guard shift < 64 else { throw PayloadDecodingError("varint longer than 64 bits", offset: offset) }
        }
    }

    /// A zig-zag signed integer.
    @inline(__always)
    public mutating func int() throws(PayloadDecodingError) -> Int64 {
        let raw = try uint()
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    /// A count, checked against the bytes left so a damaged length cannot ask for huge memory.
    @inline(__always)
    public mutating func count() throws(PayloadDecodingError) -> Int {
        let raw = try uint()
        guard raw <= UInt64(end - offset) else {
            throw PayloadDecodingError("count \(raw) exceeds the \(end - offset) bytes left", offset: offset)
        }
        return Int(raw)
    }

    /// A small non-negative integer (a quantity), bounded only by `Int`.
    @inline(__always)
    public mutating func integer() throws(PayloadDecodingError) -> Int {
        let raw = try uint()
        guard raw <= UInt64(Int.max) else { throw PayloadDecodingError("integer out of range", offset: offset) }
        return Int(raw)
    }

    /// A length-prefixed UTF-8 string.
    @inline(__always)
    public mutating func string() throws(PayloadDecodingError) -> String {
        let length = try count()
        guard let base else { return "" }
        let text = String(
            unsafeUninitializedCapacity: length,
            initializingUTF8With: { target in
                _ = target.initialize(from: UnsafeBufferPointer(start: base + offset, count: length))
                return length
            })
        offset += length
        return text
    }

    /// The bytes of a length-prefixed string, in place (valid while the payload is): for
    /// readers that compare or number a string without making one.
    @inline(__always)
    public mutating func stringBytes() throws(PayloadDecodingError) -> UnsafeRawBufferPointer {
        let length = try count()
        guard let base else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        defer { offset += length }
        return UnsafeRawBufferPointer(start: base + offset, count: length)
    }

    /// Steps over a string, as ``string()`` reads it.
    @inline(__always)
    public mutating func skipString() throws(PayloadDecodingError) { offset += try count() }

    /// Steps over an optional string, as ``optionalString()`` reads it.
    @inline(__always)
    public mutating func skipOptionalString() throws(PayloadDecodingError) {
        if try byte() != 0 { try skipString() }
    }

    /// An optional string.
    public mutating func optionalString() throws(PayloadDecodingError) -> String? {
        try byte() == 0 ? nil : try string()
    }

    /// A time.
    @inline(__always)
    public mutating func time() throws(PayloadDecodingError) -> Timestamp {
        Timestamp(microsecondsSinceEpoch: try int())
    }

    /// An optional time.
    public mutating func optionalTime() throws(PayloadDecodingError) -> Timestamp? {
        try byte() == 0 ? nil : try time()
    }

    /// A code; a value the enum does not define is an error.
    @inline(__always)
    public mutating func code<Code: RawRepresentable>(_: Code.Type) throws(PayloadDecodingError) -> Code
    where Code.RawValue == Int {
        let raw = try uint()
        guard raw <= 255, let value = Code(rawValue: Int(raw)) else {
            throw PayloadDecodingError("\(raw) is not a valid \(Code.self) code", offset: offset)
        }
        return value
    }

    /// A list of strings.
    public mutating func strings() throws(PayloadDecodingError) -> [String] {
        let count = try count()
        var values: [String] = []
        values.reserveCapacity(count)
        for _ in 0..<count { values.append(try string()) }
        return values
    }
}
