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
            try value.encode(to: Writer(box: root, codingPath: []))
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
        case object([String: Box])
        case array([Box])
    }

    var value = Value.unset

    /// Sets member `key` (a later value under the same key wins, as in `JSONEncoder`).
    func set(_ key: String, _ child: Box) {
        guard case .object(var members) = value else { return }
        value = .unset  // the dictionary is changed in place, not copied
        members[key] = child
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
            let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (index, key) in keys.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.quote(key, to: &out)
                out.append(UInt8(ascii: ":"))
                guard members[key]!.write(to: &out) else { return false }
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
        let hex = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
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

    static func text(_ value: some Encodable) throws -> [UInt8]? {
        switch value {
        case let text as String:
            var out: [UInt8] = []
            quote(text, to: &out)
            return out
        case let flag as Bool: return Array((flag ? "true" : "false").utf8)
        case let number as Int: return Array(String(number).utf8)
        case let number as Int64: return Array(String(number).utf8)
        case let number as Int32: return Array(String(number).utf8)
        case let number as Int16: return Array(String(number).utf8)
        case let number as Int8: return Array(String(number).utf8)
        case let number as UInt: return Array(String(number).utf8)
        case let number as UInt64: return Array(String(number).utf8)
        case let number as UInt32: return Array(String(number).utf8)
        case let number as UInt16: return Array(String(number).utf8)
        case let number as UInt8: return Array(String(number).utf8)
        // Other numbers would ask the container for themselves again; times and bytes have
        // JSONEncoder's own strategies.
        case is any FixedWidthInteger, is any BinaryFloatingPoint, is Date, is Data, is URL, is Decimal:
            throw CanonicalJSONEncoder.Unsupported()
        default: return nil
        }
    }

    /// A box holding `value`: its text for a scalar, else what its `encode(to:)` writes.
    static func holding(_ value: some Encodable, at path: [any CodingKey]) throws -> Box {
        let box = Box()
        if let text = try text(value) {
            box.value = .text(text)
        } else {
            try value.encode(to: Writer(box: box, codingPath: path))
        }
        return box
    }
}

private struct Writer: Encoder {
    let box: Box
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        // A second keyed container on the same value adds to it (a command's fields join its envelope's).
        if case .object = box.value {} else { box.value = .object([:]) }
        return KeyedEncodingContainer(Keyed(box: box, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = box.value {} else { box.value = .array([]) }
        return Unkeyed(box: box, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { Single(box: box, codingPath: codingPath) }
}

private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: Box
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws {
        let child = Box()
        child.value = .text(Array("null".utf8))
        box.set(key.stringValue, child)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        box.set(key.stringValue, try Box.holding(value, at: codingPath + [key]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let child = Box()
        box.set(key.stringValue, child)
        return Writer(box: child, codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = Box()
        box.set(key.stringValue, child)
        return Writer(box: child, codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { Writer(box: box, codingPath: codingPath) }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let child = Box()
        box.set(key.stringValue, child)
        return Writer(box: child, codingPath: codingPath + [key])
    }
}

private struct Unkeyed: UnkeyedEncodingContainer {
    let box: Box
    let codingPath: [any CodingKey]
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
        box.append(try Box.holding(value, at: codingPath + [JSONIndexKey(count)]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let child = Box()
        let path = codingPath + [JSONIndexKey(count)]
        box.append(child)
        return Writer(box: child, codingPath: path).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = Box()
        let path = codingPath + [JSONIndexKey(count)]
        box.append(child)
        return Writer(box: child, codingPath: path).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let child = Box()
        let path = codingPath + [JSONIndexKey(count)]
        box.append(child)
        return Writer(box: child, codingPath: path)
    }
}

private struct Single: SingleValueEncodingContainer {
    let box: Box
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { box.value = .text(Array("null".utf8)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        box.value = try Box.holding(value, at: codingPath).value
    }
}
