import NIOCore

/// A JSON writer for the hottest answers (a bundle's outcomes, a batch, a stored photo): the
/// bytes `JSONEncoder` with sorted keys and unescaped slashes would give, without its boxing of
/// every value. Callers write the members of each object in sorted order themselves; a test
/// compares the output with `JSONEncoder`'s.
struct JSONText {
    /// Gathered in an array and copied into a buffer once: each write to a `ByteBuffer` checks its
    /// uniqueness, capacity and bounds, checks a bundle's answer would otherwise make for every
    /// member of every outcome.
    private var bytes: [UInt8] = []
    private var needsComma = false

    init(capacity: Int = 1024) { bytes.reserveCapacity(capacity) }

    /// The text written so far.
    var buffer: ByteBuffer { ByteBuffer(bytes: bytes) }

    mutating func beginObject() { open(UInt8(ascii: "{")) }
    mutating func endObject() { close(UInt8(ascii: "}")) }
    mutating func beginArray() { open(UInt8(ascii: "[")) }
    mutating func endArray() { close(UInt8(ascii: "]")) }

    /// Starts a member: `"name":` (the value follows).
    mutating func key(_ name: String) {
        separate()
        writeString(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    mutating func string(_ value: String) {
        separate()
        writeString(value)
        needsComma = true
    }

    mutating func number(_ value: UInt64) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
        needsComma = true
    }

    mutating func number(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
        needsComma = true
    }

    mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: value ? "true".utf8 : "false".utf8)
        needsComma = true
    }

    mutating func strings(_ values: [String]) {
        beginArray()
        for value in values { string(value) }
        endArray()
    }

    // Members: `"name":value`, left out when the value is nil (as `JSONEncoder` leaves out an
    // absent optional).

    mutating func member(_ name: String, _ value: String?) {
        guard let value else { return }
        key(name)
        string(value)
    }

    mutating func member(_ name: String, _ value: Int?) {
        guard let value else { return }
        key(name)
        number(value)
    }

    mutating func member(_ name: String, _ value: UInt64?) {
        guard let value else { return }
        key(name)
        number(value)
    }

    mutating func member(_ name: String, _ value: Bool) {
        key(name)
        bool(value)
    }

    mutating func member(_ name: String, _ values: [String]?) {
        guard let values else { return }
        key(name)
        strings(values)
    }

    private mutating func open(_ byte: UInt8) {
        separate()
        bytes.append(byte)
        needsComma = false
    }

    private mutating func close(_ byte: UInt8) {
        bytes.append(byte)
        needsComma = true
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private mutating func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        let escaped = text.utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
        if !escaped {
            bytes.append(contentsOf: text.utf8)
        } else {
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "\""): bytes.append(contentsOf: "\\\"".utf8)
                case UInt8(ascii: "\\"): bytes.append(contentsOf: "\\\\".utf8)
                case 0x08: bytes.append(contentsOf: "\\b".utf8)
                case 0x09: bytes.append(contentsOf: "\\t".utf8)
                case 0x0A: bytes.append(contentsOf: "\\n".utf8)
                case 0x0C: bytes.append(contentsOf: "\\f".utf8)
                case 0x0D: bytes.append(contentsOf: "\\r".utf8)
                case ..<0x20:
                    bytes.append(contentsOf: "\\u00".utf8)
                    bytes.append(Self.hexDigits[Int(byte >> 4)])
                    bytes.append(Self.hexDigits[Int(byte & 15)])
                default: bytes.append(byte)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
