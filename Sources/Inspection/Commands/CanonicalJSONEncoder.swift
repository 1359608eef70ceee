import Foundation

/// Writes an `Encodable` as compact JSON with sorted keys, byte for byte as `JSONEncoder` with
/// `[.sortedKeys, .withoutEscapingSlashes]` does, for the values commands hold (strings, integers,
/// booleans, arrays, objects, nulls; times as their ISO text).
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
        do {
            try value.encode(to: Writer(box: root))
        } catch {
            return nil
        }
        var out: [UInt8] = []
        out.reserveCapacity(256)
        guard root.write(to: &out) else { return nil }
        return String(decoding: out, as: UTF8.self)
    }

    /// A type this writer leaves to `JSONEncoder`.
    struct Unsupported: Error {}
}

/// One value being written: containers write into their box as they are filled.
private final class Box {
    enum Value {
        case unset
        /// The value's JSON text, ready.
        case text([UInt8])
        /// Members in the order set; written sorted by key.
        case object([(key: String, value: Box)])
        case array([Box])
    }

    var value = Value.unset

    /// Sets member `key` (a later value under the same key wins, as in `JSONEncoder`). A command's
    /// objects have a few members, so a list searched in order beats hashing every key.
    func set(_ key: String, _ child: Box) {
        guard case .object(var members) = value else { return }
        value = .unset  // the list is changed in place, not copied
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = child
        } else {
            members.append((key, child))
        }
        value = .object(members)
    }

    func append(_ child: Box) {
        guard case .array(var items) = value else { return }
        value = .unset
        items.append(child)
        value = .array(items)
    }

    /// Appends the JSON text; false when nothing was ever written into a box.
    func write(to out: inout [UInt8]) -> Bool {
        switch value {
        case .unset:
            return false
        case .text(let text):
            out.append(contentsOf: text)
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (index, member) in sorted.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.quote(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                guard member.value.write(to: &out) else { return false }
            }
            out.append(UInt8(ascii: "}"))
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                guard item.write(to: &out) else { return false }
            }
            out.append(UInt8(ascii: "]"))
        }
        return true
    }

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

    /// The JSON text of a scalar; nil for a value that writes itself into containers.
    static func text(_ value: some Encodable) throws -> [UInt8]? {
        // One conformance lookup, in place of a chain of `as?` casts (one per scalar type) that
        // every object and list went through to the end.
        if let scalar = value as? any CanonicalJSONScalar { return scalar.canonicalJSON }
        // Other numbers would ask the container for themselves again; times and bytes have
        // JSONEncoder's own strategies.
        let valueType = type(of: value)
        if valueType == Date.self || valueType == Data.self || valueType == URL.self || valueType == Decimal.self
            || value is any FixedWidthInteger || value is any BinaryFloatingPoint
        {
            throw CanonicalJSONEncoder.Unsupported()
        }
        return nil
    }

    /// A box holding `value`: its text for a scalar, else what its `encode(to:)` writes.
    static func holding(_ value: some Encodable) throws -> Box {
        let box = Box()
        if let text = try text(value) {
            box.value = .text(text)
        } else {
            try value.encode(to: Writer(box: box))
        }
        return box
    }
}

/// The JSON text of the scalar types commands hold, as `JSONEncoder` writes them.
private protocol CanonicalJSONScalar {
    var canonicalJSON: [UInt8] { get }
}

extension String: CanonicalJSONScalar {
    var canonicalJSON: [UInt8] {
        var out: [UInt8] = []
        Box.quote(self, to: &out)
        return out
    }
}

extension Bool: CanonicalJSONScalar {
    var canonicalJSON: [UInt8] { Array((self ? "true" : "false").utf8) }
}

extension CanonicalJSONScalar where Self: BinaryInteger {
    var canonicalJSON: [UInt8] { Array(String(self).utf8) }
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
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        // A second keyed container on the same value adds to it (a command's fields join its envelope's).
        if case .object = box.value {} else { box.value = .object([]) }
        return KeyedEncodingContainer(Keyed(box: box))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = box.value {} else { box.value = .array([]) }
        return Unkeyed(box: box)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { Single(box: box) }
}

private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: Box
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws {
        let child = Box()
        child.value = .text(Array("null".utf8))
        box.set(key.stringValue, child)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        box.set(key.stringValue, try Box.holding(value))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let child = Box()
        box.set(key.stringValue, child)
        return Writer(box: child).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = Box()
        box.set(key.stringValue, child)
        return Writer(box: child).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { Writer(box: box) }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let child = Box()
        box.set(key.stringValue, child)
        return Writer(box: child)
    }
}

private struct Unkeyed: UnkeyedEncodingContainer {
    let box: Box
    var codingPath: [any CodingKey] { [] }
    var count: Int {
        if case .array(let items) = box.value { return items.count }
        return 0
    }

    mutating func encodeNil() throws {
        let child = Box()
        child.value = .text(Array("null".utf8))
        box.append(child)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        box.append(try Box.holding(value))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let child = Box()
        box.append(child)
        return Writer(box: child).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = Box()
        box.append(child)
        return Writer(box: child).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let child = Box()
        box.append(child)
        return Writer(box: child)
    }
}

private struct Single: SingleValueEncodingContainer {
    let box: Box
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() throws { box.value = .text(Array("null".utf8)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        box.value = try Box.holding(value).value
    }
}
