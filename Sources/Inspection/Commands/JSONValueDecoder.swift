import Datasheets
import Foundation

/// Decodes a `Decodable` from a ``JSONValue`` already parsed (and checked against its schema), so
/// a command's JSON is parsed once, not once for the schema and again by `JSONDecoder`.
///
/// It decodes as `JSONDecoder` with its default strategies does for the types commands hold
/// (strings, integers, booleans, arrays, objects, optionals): a member named twice takes the first
/// value; an integer may be written `2.0` or `2e0`; a missing member, a `null` where a value is
/// needed and a value of the wrong kind throw the same `DecodingError` cases with the coding path.
/// A number that does not fit its type is `dataCorrupted` at the member's path (`JSONDecoder`
/// leaves the path out, and the message could not name the field).
struct JSONValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]

    /// Decodes `type` from `value`.
    static func decode<T: Decodable>(
        _ type: T.Type, from value: JSONValue, userInfo: [CodingUserInfoKey: Any] = [:]
    ) throws -> T {
        try T(from: JSONValueDecoder(value: value, codingPath: [], userInfo: userInfo))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            throw mismatch([String: Any].self, value, at: codingPath)
        }
        return KeyedDecodingContainer(Keyed<Key>(members: members, decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw mismatch([Any].self, value, at: codingPath) }
        return Unkeyed(items: items, decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(decoder: self) }

    /// `value` as a `T` at `path`: a scalar read here, anything else by its own `init(from:)`.
    ///
    /// Every `decode` of the containers ends here, also for the scalar types (whose
    /// `init(from:)` would ask the container again).
    fileprivate func decode<T: Decodable>(_ type: T.Type, _ value: JSONValue, at path: [any CodingKey]) throws -> T {
        if Self.isScalar(type) { return try scalar(type, value, at: path) }
        if case .null = value, !(type is any ExpressibleByNilLiteral.Type) { throw Self.null(type, at: path) }
        return try T(from: JSONValueDecoder(value: value, codingPath: path, userInfo: userInfo))
    }

    private static func isScalar(_ type: Any.Type) -> Bool {
        type == String.self || type == Bool.self || type == Double.self || type == Float.self || isInteger(type)
    }

    /// Whether `type` is one of the integer types ``integer(_:_:)`` reads.
    private static func isInteger(_ type: Any.Type) -> Bool {
        type is any FixedWidthInteger.Type
    }

    private static func null(_ type: Any.Type, at path: [any CodingKey]) -> DecodingError {
        DecodingError.valueNotFound(
            type,
            .init(codingPath: path, debugDescription: "Cannot get value of type \(type) -- found null value instead"))
    }

    /// A string, boolean or number of `type` from `value`.
    private func scalar<T>(_ type: T.Type, _ value: JSONValue, at path: [any CodingKey]) throws -> T {
        switch value {
        case .null:
            throw Self.null(type, at: path)
        case .string(let text) where type == String.self:
            return text as! T
        case .bool(let flag) where type == Bool.self:
            return flag as! T
        case .number(let text):
            if let number = Self.integer(type, text) { return number as! T }
            if type == Double.self, let number = Double(text) { return number as! T }
            if type == Float.self, let number = Float(text) { return number as! T }
            if Self.isInteger(type) {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: path, debugDescription: "Parsed JSON number <\(text)> does not fit in \(type)."))
            }
        default:
            break
        }
        throw mismatch(type, value, at: path)
    }

    /// The number as the fixed-width integer type `type` asks for (nil when it asks for another,
    /// or the number is not a whole one that fits).
    private static func integer(_ type: Any.Type, _ text: String) -> Any? {
        guard let integer = type as? any FixedWidthInteger.Type else { return nil }
        return exact(integer, text)
    }

    private static func exact<I: FixedWidthInteger>(_: I.Type, _ text: String) -> I? {
        if let value = I(text) { return value }
        guard let double = Double(text), double == double.rounded() else { return nil }
        return I(exactly: double)
    }

    fileprivate func mismatch(_ type: Any.Type, _ value: JSONValue, at path: [any CodingKey]) -> DecodingError {
        DecodingError.typeMismatch(
            type,
            .init(
                codingPath: path, debugDescription: "Expected to decode \(type) but found \(Self.kind(value)) instead.")
        )
    }

    private static func kind(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "bool"
        case .number: "number"
        case .string: "a string"
        case .array: "an array"
        case .object: "a dictionary"
        }
    }
}

private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [(key: String, value: JSONValue)]
    let decoder: JSONValueDecoder

    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] { members.compactMap { Key(stringValue: $0.key) } }

    func contains(_ key: Key) -> Bool { members.contains { $0.key == key.stringValue } }

    /// The member's value (the first, when named twice).
    private func member(_ key: Key) throws -> JSONValue {
        guard let found = members.first(where: { $0.key == key.stringValue }) else {
            throw DecodingError.keyNotFound(
                key,
                .init(
                    codingPath: codingPath,
                    debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
        }
        return found.value
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        if case .null = try member(key) { return true }
        return false
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try decoder.decode(type, try member(key), at: codingPath + [key])
    }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try decoder.decode(type, try member(key), at: codingPath + [key])
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        try decoder.decode(type, try member(key), at: codingPath + [key])
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try decoder.decode(type, try member(key), at: codingPath + [key])
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try decoder.decode(type, try member(key), at: codingPath + [key])
    }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.decode(type, try member(key), at: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try nested(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try nested(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { decoder }

    func superDecoder(forKey key: Key) throws -> any Decoder { try nested(key) }

    private func nested(_ key: Key) throws -> JSONValueDecoder {
        JSONValueDecoder(value: try member(key), codingPath: codingPath + [key], userInfo: decoder.userInfo)
    }
}

/// An array's place, as a coding key (`Index 3`, like JSONDecoder's): for the paths of
/// ``JSONValueDecoder`` and ``CanonicalJSONEncoder``.
struct JSONIndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct Unkeyed: UnkeyedDecodingContainer {
    let items: [JSONValue]
    let decoder: JSONValueDecoder
    var currentIndex = 0

    init(items: [JSONValue], decoder: JSONValueDecoder) {
        self.items = items
        self.decoder = decoder
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    private mutating func next<T>(_ type: T.Type) throws -> (JSONValue, [any CodingKey]) {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type,
                .init(
                    codingPath: codingPath + [JSONIndexKey(currentIndex)],
                    debugDescription: "Unkeyed container is at end."))
        }
        defer { currentIndex += 1 }
        return (items[currentIndex], codingPath + [JSONIndexKey(currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, case .null = items[currentIndex] else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, path) = try next(type)
        return try decoder.decode(type, value, at: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let (value, path) = try next([String: Any].self)
        return try JSONValueDecoder(value: value, codingPath: path, userInfo: decoder.userInfo).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, path) = try next([Any].self)
        return try JSONValueDecoder(value: value, codingPath: path, userInfo: decoder.userInfo).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, path) = try next(Any.self)
        return JSONValueDecoder(value: value, codingPath: path, userInfo: decoder.userInfo)
    }
}

private struct Single: SingleValueDecodingContainer {
    let decoder: JSONValueDecoder

    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool {
        if case .null = decoder.value { return true }
        return false
    }

    func decode(_ type: String.Type) throws -> String { try decoder.decode(type, decoder.value, at: codingPath) }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.decode(type, decoder.value, at: codingPath) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.decode(type, decoder.value, at: codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.decode(type, decoder.value, at: codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try decoder.decode(type, decoder.value, at: codingPath) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decode(type, decoder.value, at: codingPath) }
}
