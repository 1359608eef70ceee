import Chronology
import Foundation

/// Writes an `Encodable` as compact JSON with sorted keys, byte for byte as `JSONEncoder` with
/// `[.sortedKeys, .withoutEscapingSlashes]` and ``userInfo`` does, for the values commands hold
/// (strings, integers, booleans, arrays, objects, nulls; times as their ISO text with six
/// fraction digits).
///
/// Every appended command is fingerprinted over this text, and `JSONEncoder` spent more time on
/// it than deciding the command. The bytes must not change: a fingerprint in the log is compared
/// with the fingerprint of a resent command. `CanonicalJSONTests` compares the two writers on
/// every sample command and on every character class a string can hold; a value of a type this
/// writer does not know (`Double`, `Date`, `Data`, …) makes ``encode(_:)`` return nil, and the
/// caller uses `JSONEncoder`.
enum CanonicalJSONEncoder {
    /// The JSON text, or nil when `value` holds a type only `JSONEncoder` knows how to write.
    static func encode(_ value: some Encodable) -> String? {
        let root = Box()
        let scalars = Scalars()
        do {
            try value.encode(to: Writer(box: root, scalars: scalars))
        } catch {
            return nil
        }
        var out: [UInt8] = []
        out.reserveCapacity(scalars.bytes.count + 64)
        guard root.write(to: &out, scalars: scalars) else { return nil }
        return String(decoding: out, as: UTF8.self)
    }

    /// What the encoder tells the values it encodes: times write six fraction digits
    /// (``Timestamp/TextForm/microseconds``), as the fingerprints in the log were computed.
    static var userInfo: [CodingUserInfoKey: Any] { [.timestampTextForm: Timestamp.TextForm.microseconds] }

    /// A type this writer leaves to `JSONEncoder`.
    struct Unsupported: Error {}

    /// `text` as a JSON string: `"` and `\` escaped, control characters as `\b \t \n \f \r` or
    /// `\u00xx`, everything else (`/`, DEL, all of Unicode) as it is.
    static func quote(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Most texts (ids, paths, names) need no escape: copied whole.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out.append(contentsOf: text.utf8)
            out.append(UInt8(ascii: "\""))
            return
        }
        let hex = Array("0123456789abcdef".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x08: out += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0C: out += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0..<0x20:
                out += Array("\\u00".utf8)
                out += [hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

/// The JSON text of every scalar of one value, one after the other: members point into it, so
/// a string or number costs no allocation of its own (a command has a handful of each, and it is
/// fingerprinted on every append).
private final class Scalars {
    var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(256) }

    /// Appends the text `write` produces; where it lies.
    func append(_ write: (inout [UInt8]) -> Void) -> Range<Int> {
        let start = bytes.count
        write(&bytes)
        return start..<bytes.count
    }

    static let null = Array("null".utf8)
}

/// A member of an object or an item of a list: a scalar's text, or a container.
private enum Member {
    case text(Range<Int>)
    case box(Box)

    /// `value` as a member: its text for a scalar, else a box of what its `encode(to:)` writes.
    static func holding(_ value: some Encodable, scalars: Scalars) throws -> Member {
        // One conformance lookup, in place of a chain of `as?` casts (one per scalar type) that
        // every object and list went through to the end.
        if let scalar = value as? any CanonicalJSONScalar {
            return .text(scalars.append { scalar.writeCanonicalJSON(to: &$0) })
        }
        // Other numbers would ask the container for themselves again; times and bytes have
        // JSONEncoder's own strategies.
        let valueType = type(of: value)
        if valueType == Date.self || valueType == Data.self || valueType == URL.self || valueType == Decimal.self
            || value is any FixedWidthInteger || value is any BinaryFloatingPoint
        {
            throw CanonicalJSONEncoder.Unsupported()
        }
        let box = Box()
        try value.encode(to: Writer(box: box, scalars: scalars))
        return .box(box)
    }

    /// A scalar's text: for the overloads the containers have for each scalar type, which
    /// synthesized `encode(to:)` methods call, so most values never go through a dynamic cast.
    static func scalar(_ value: some CanonicalJSONScalar, scalars: Scalars) -> Member {
        .text(scalars.append { value.writeCanonicalJSON(to: &$0) })
    }

    static func null(_ scalars: Scalars) -> Member {
        .text(scalars.append { $0.append(contentsOf: Scalars.null) })
    }

    func write(to out: inout [UInt8], scalars: Scalars) -> Bool {
        switch self {
        case .text(let range):
            out.append(contentsOf: scalars.bytes[range])
            return true
        case .box(let box):
            return box.write(to: &out, scalars: scalars)
        }
    }
}

/// One container being written: filled as the value encodes itself.
private final class Box {
    enum Value {
        case unset
        /// A scalar written through a single-value container.
        case text(Range<Int>)
        /// Members in the order set; written sorted by key.
        case object([(key: String, value: Member)])
        case array([Member])
    }

    var value = Value.unset

    /// Sets member `key` (a later value under the same key wins, as in `JSONEncoder`). A command's
    /// objects have a few members, so a list searched in order beats hashing every key.
    func set(_ key: String, _ child: Member) {
        guard case .object(var members) = value else { return }
        value = .unset  // the list is changed in place, not copied
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = child
        } else {
            members.append((key, child))
        }
        value = .object(members)
    }

    func append(_ child: Member) {
        guard case .array(var items) = value else { return }
        value = .unset
        items.append(child)
        value = .array(items)
    }

    /// Appends the JSON text; false when nothing was ever written into a box.
    func write(to out: inout [UInt8], scalars: Scalars) -> Bool {
        switch value {
        case .unset:
            return false
        case .text(let range):
            out.append(contentsOf: scalars.bytes[range])
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (index, member) in sorted.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                CanonicalJSONEncoder.quote(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                guard member.value.write(to: &out, scalars: scalars) else { return false }
            }
            out.append(UInt8(ascii: "}"))
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                guard item.write(to: &out, scalars: scalars) else { return false }
            }
            out.append(UInt8(ascii: "]"))
        }
        return true
    }
}

/// The scalar types commands hold, written as `JSONEncoder` writes them.
private protocol CanonicalJSONScalar {
    func writeCanonicalJSON(to out: inout [UInt8])
}

extension String: CanonicalJSONScalar {
    func writeCanonicalJSON(to out: inout [UInt8]) { CanonicalJSONEncoder.quote(self, to: &out) }
}

extension Bool: CanonicalJSONScalar {
    func writeCanonicalJSON(to out: inout [UInt8]) { out.append(contentsOf: (self ? "true" : "false").utf8) }
}

extension CanonicalJSONScalar where Self: BinaryInteger {
    func writeCanonicalJSON(to out: inout [UInt8]) { out.append(contentsOf: String(self).utf8) }
}

extension Int: CanonicalJSONScalar {}
extension Int64: CanonicalJSONScalar {}
extension Int32: CanonicalJSONScalar {}
extension Int16: CanonicalJSONScalar {}
extension Int8: CanonicalJSONScalar {}
extension UInt: CanonicalJSONScalar {}
extension UInt64: CanonicalJSONScalar {}
extension UInt32: CanonicalJSONScalar {}
extension UInt16: CanonicalJSONScalar {}
extension UInt8: CanonicalJSONScalar {}

// The containers report an empty coding path: no `encode(to:)` of a command reads it, and an
// error only makes ``CanonicalJSONEncoder/encode(_:)`` hand the value to `JSONEncoder`, so the
// path was never seen, while building it copied an array of keys for every value written.

private struct Writer: Encoder {
    let box: Box
    let scalars: Scalars
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { CanonicalJSONEncoder.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        // A second keyed container on the same value adds to it (a command's fields join its envelope's).
        if case .object = box.value {} else { box.value = .object([]) }
        return KeyedEncodingContainer(Keyed(box: box, scalars: scalars))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = box.value {} else { box.value = .array([]) }
        return Unkeyed(box: box, scalars: scalars)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { Single(box: box, scalars: scalars) }
}

private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: Box
    let scalars: Scalars
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws {
        box.set(key.stringValue, .null(scalars))
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        box.set(key.stringValue, try .holding(value, scalars: scalars))
    }

    mutating func encode(_ value: String, forKey key: Key) throws { set(value, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(value, key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(value, key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(value, key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(value, key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(value, key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(value, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(value, key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(value, key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(value, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(value, key) }

    private func set(_ value: some CanonicalJSONScalar, _ key: Key) {
        box.set(key.stringValue, .scalar(value, scalars: scalars))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let child = Box()
        box.set(key.stringValue, .box(child))
        return Writer(box: child, scalars: scalars).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = Box()
        box.set(key.stringValue, .box(child))
        return Writer(box: child, scalars: scalars).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { Writer(box: box, scalars: scalars) }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let child = Box()
        box.set(key.stringValue, .box(child))
        return Writer(box: child, scalars: scalars)
    }
}

private struct Unkeyed: UnkeyedEncodingContainer, ScalarContainer {
    let box: Box
    let scalars: Scalars
    var codingPath: [any CodingKey] { [] }
    var count: Int {
        if case .array(let items) = box.value { return items.count }
        return 0
    }

    mutating func encodeNil() throws {
        box.append(.null(scalars))
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        box.append(try .holding(value, scalars: scalars))
    }

    func put(_ value: some CanonicalJSONScalar) {
        box.append(.scalar(value, scalars: scalars))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let child = Box()
        box.append(.box(child))
        return Writer(box: child, scalars: scalars).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = Box()
        box.append(.box(child))
        return Writer(box: child, scalars: scalars).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let child = Box()
        box.append(.box(child))
        return Writer(box: child, scalars: scalars)
    }
}

private struct Single: SingleValueEncodingContainer, ScalarContainer {
    let box: Box
    let scalars: Scalars
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() throws {
        guard case .text(let range) = Member.null(scalars) else { return }
        box.value = .text(range)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        switch try Member.holding(value, scalars: scalars) {
        case .text(let range): box.value = .text(range)
        case .box(let child): box.value = child.value
        }
    }

    func put(_ value: some CanonicalJSONScalar) {
        guard case .text(let range) = Member.scalar(value, scalars: scalars) else { return }
        box.value = .text(range)
    }
}

/// A container that takes a scalar without a key: an unkeyed one appends it, a single-value one
/// holds it. The per-type `encode` overloads that synthesized `encode(to:)` calls (no dynamic
/// cast per scalar) are written once here for both.
private protocol ScalarContainer {
    func put(_ value: some CanonicalJSONScalar)
}

extension ScalarContainer {
    mutating func encode(_ value: String) throws { put(value) }
    mutating func encode(_ value: Bool) throws { put(value) }
    mutating func encode(_ value: Int) throws { put(value) }
    mutating func encode(_ value: Int8) throws { put(value) }
    mutating func encode(_ value: Int16) throws { put(value) }
    mutating func encode(_ value: Int32) throws { put(value) }
    mutating func encode(_ value: Int64) throws { put(value) }
    mutating func encode(_ value: UInt) throws { put(value) }
    mutating func encode(_ value: UInt8) throws { put(value) }
    mutating func encode(_ value: UInt16) throws { put(value) }
    mutating func encode(_ value: UInt32) throws { put(value) }
    mutating func encode(_ value: UInt64) throws { put(value) }
}
