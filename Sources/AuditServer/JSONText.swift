import NIOCore

/// A JSON writer for the hottest answers (a bundle's outcomes, a batch, a stored photo): the
/// bytes `JSONEncoder` with sorted keys and unescaped slashes would give, without its boxing of
/// every value. Callers write the members of each object in sorted order themselves; a test
/// compares the output with `JSONEncoder`'s.
struct JSONText {
    private(set) var buffer: ByteBuffer
    private var needsComma = false

    init(capacity: Int = 1024) { buffer = ByteBufferAllocator().buffer(capacity: capacity) }

    mutating func beginObject() { open(UInt8(ascii: "{")) }
    mutating func endObject() { close(UInt8(ascii: "}")) }
    mutating func beginArray() { open(UInt8(ascii: "[")) }
    mutating func endArray() { close(UInt8(ascii: "]")) }

    /// Starts a member: `"name":` (the value follows).
    mutating func key(_ name: String) {
        separate()
        writeString(name)
        buffer.writeInteger(UInt8(ascii: ":"))
        needsComma = false
    }

    mutating func string(_ value: String) {
        separate()
        writeString(value)
        needsComma = true
    }

    mutating func number(_ value: UInt64) {
        separate()
        buffer.writeString(String(value))
        needsComma = true
    }

    mutating func number(_ value: Int) {
        separate()
        buffer.writeString(String(value))
        needsComma = true
    }

    mutating func bool(_ value: Bool) {
        separate()
        if value { buffer.writeStaticString("true") } else { buffer.writeStaticString("false") }
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
        buffer.writeInteger(byte)
        needsComma = false
    }

    private mutating func close(_ byte: UInt8) {
        buffer.writeInteger(byte)
        needsComma = true
    }

    private mutating func separate() {
        if needsComma { buffer.writeInteger(UInt8(ascii: ",")) }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private mutating func writeString(_ text: String) {
        buffer.writeInteger(UInt8(ascii: "\""))
        let escaped = text.utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
        if !escaped {
            buffer.writeString(text)
        } else {
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "\""): buffer.writeStaticString("\\\"")
                case UInt8(ascii: "\\"): buffer.writeStaticString("\\\\")
                case 0x08: buffer.writeStaticString("\\b")
                case 0x09: buffer.writeStaticString("\\t")
                case 0x0A: buffer.writeStaticString("\\n")
                case 0x0C: buffer.writeStaticString("\\f")
                case 0x0D: buffer.writeStaticString("\\r")
                case ..<0x20:
                    buffer.writeStaticString("\\u00")
                    buffer.writeInteger(Self.hexDigits[Int(byte >> 4)])
                    buffer.writeInteger(Self.hexDigits[Int(byte & 15)])
                default: buffer.writeInteger(byte)
                }
            }
        }
        buffer.writeInteger(UInt8(ascii: "\""))
    }
}
