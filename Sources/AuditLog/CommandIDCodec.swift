/// Stores command ids compactly and exactly: a hex tail or a UUID in binary, anything else as text.
///
/// Command ids are usually random (`cmd-3f9a…`, UUIDs), so LZ4 cannot shrink their text; their
/// binary form is half the size. A command id is encoded as a varint header `h`, then:
///
/// ```
/// h & 3 == 0  text: h >> 2 bytes of UTF-8
/// h & 3 == 1  prefix + lowercase hex: h >> 2 prefix bytes, varint n, n bytes (2n hex digits)
/// h & 3 == 2  prefix + uppercase hex: as above, letters A–F
/// h & 3 == 3  canonical UUID (8-4-4-4-12 hex digits): h >> 2 is 0 lowercase, 1 uppercase; 16 bytes
/// h == 11     fingerprinted: the command's 16-byte ``CommandFingerprint``, then one of the above
/// ```
/// The fingerprint is stored in the first record of each append only (the others repeat the id).
/// Only a form that turns back into exactly the same text is chosen: a hex tail has an even
/// number of digits, all its letters in one case, and at least ``minimumHexDigits``.
enum CommandIDCodec {
    static let minimumHexDigits = 8
    /// The header that puts a fingerprint in front of an encoded id.
    static let fingerprintHeader: UInt64 = 11

    /// Appends `fingerprint` (when given) and the encoded form of `text` to `writer`.
    static func encode(
        _ text: UnsafeRawBufferPointer, fingerprint: CommandFingerprint?, into writer: inout ByteWriter
    ) {
        if let fingerprint {
            writer.varint(fingerprintHeader)
            fingerprint.withBytes { writer.bytes.append(contentsOf: $0) }
        }
        encode(text, into: &writer)
    }

    /// The fingerprint in front of an encoded id checked by ``slice(_:)``, or nil when it has none.
    static func fingerprint(_ encoded: UnsafeRawBufferPointer) -> CommandFingerprint? {
        guard encoded.count > CommandFingerprint.byteCount, encoded[0] == UInt8(fingerprintHeader) else { return nil }
        return CommandFingerprint(stored: UnsafeRawBufferPointer(rebasing: encoded[1...]))
    }

    /// Appends the encoded form of `commandID` to `writer`.
    static func encode(_ commandID: String, into writer: inout ByteWriter) {
        var commandID = commandID
        commandID.withUTF8 { utf8 in encode(UnsafeRawBufferPointer(utf8), into: &writer) }
    }

    static func encode(_ text: UnsafeRawBufferPointer, into writer: inout ByteWriter) {
        if text.count == 36, let upper = uuidCase(text) {
            writer.varint(upper ? 7 : 3)
            writer.append(count: 16) { output in
                var index = 0
                var out = 0
                while index < 36 {
                    if text[index] == UInt8(ascii: "-") {
                        index += 1
                        continue
                    }
                    output[out] = nibble(text[index]) << 4 | nibble(text[index + 1])
                    out += 1
                    index += 2
                }
            }
            return
        }
        // The longest hex tail whose letters share one case.
        // Flags as bits rather than branches: random hex digits make branches unpredictable.
        var start = text.count
        var seen: UInt8 = 0  // 1: a lowercase letter, 2: an uppercase one
        while start > 0 {
            let byte = text[start - 1]
            let digit: UInt8 = byte &- UInt8(ascii: "0") < 10 ? 1 : 0
            let letter: UInt8 = (byte | 0x20) &- UInt8(ascii: "a") < 6 ? 1 : 0
            let kind = letter &<< (byte >> 5 & 1 ^ 1)  // lowercase letters have bit 5 set
            guard digit | letter != 0, seen | kind != 3 else { break }
            seen |= kind
            start -= 1
        }
        let upper: Bool? = seen == 2 ? true : seen == 1 ? false : nil
        // An odd digit count leaves the first digit in the prefix (digits read the same in either case).
        if (text.count - start) % 2 == 1 { start += 1 }
        let digits = text.count - start
        guard digits >= minimumHexDigits else {
            writer.varint(UInt64(text.count) << 2)
            writer.bytes.append(contentsOf: text)
            return
        }
        writer.varint(UInt64(start) << 2 | (upper == true ? 2 : 1))
        writer.bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: text[0..<start]))
        writer.varint(UInt64(digits / 2))
        writer.append(count: digits / 2) { output in
            var index = start
            var out = 0
            while index < text.count {
                output[out] = nibble(text[index]) << 4 | nibble(text[index + 1])
                out += 1
                index += 2
            }
        }
    }

    /// Skips one encoded command id and returns its bytes (header included), for ``decode(_:)``.
    @inline(__always)
    static func slice(_ reader: inout ByteReader) throws(ByteReaderError) -> UnsafeRawBufferPointer {
        let start = reader.offset
        var header = try reader.varint()
        if header == fingerprintHeader {
            try reader.skip(UInt64(CommandFingerprint.byteCount))
            header = try reader.varint()
            guard header != fingerprintHeader else { throw ByteReaderError() }
        }
        switch header & 3 {
        case 0:
            try reader.skip(header >> 2)
        case 3:
            guard header >> 2 <= 1 else { throw ByteReaderError() }
            try reader.skip(16)
        default:
            try reader.skip(header >> 2)
            try reader.skip(try reader.varint())
        }
        return UnsafeRawBufferPointer(start: reader.base + start, count: reader.offset - start)
    }

    /// The text of a command id encoded by ``encode(_:into:)`` and checked by ``slice(_:)``.
    static func decode(_ encoded: UnsafeRawBufferPointer) -> String {
        var reader = ByteReader(encoded)
        guard var header = try? reader.varint() else { return "" }
        if header == fingerprintHeader {
            guard (try? reader.skip(UInt64(CommandFingerprint.byteCount))) != nil, let inner = try? reader.varint()
            else { return "" }
            header = inner
        }
        let rest = UnsafeRawBufferPointer(rebasing: encoded[reader.offset...])
        switch header & 3 {
        case 0:
            return String(decoding: rest, as: UTF8.self)
        case 3:
            let digits = header >> 2 == 1 ? upperDigits : lowerDigits
            return String(unsafeUninitializedCapacity: 36) { output in
                var out = 0
                for (index, byte) in rest.prefix(16).enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        output[out] = UInt8(ascii: "-")
                        out += 1
                    }
                    output[out] = digits[Int(byte >> 4)]
                    output[out + 1] = digits[Int(byte & 0xF)]
                    out += 2
                }
                return out
            }
        default:
            let digits = header & 3 == 2 ? upperDigits : lowerDigits
            let prefixCount = Int(header >> 2)
            guard prefixCount <= rest.count else { return "" }
            var tail = ByteReader(UnsafeRawBufferPointer(rebasing: rest[prefixCount...]))
            guard let count = try? tail.varint(), count <= UInt64(tail.remaining) else { return "" }
            let bytes = UnsafeRawBufferPointer(start: tail.base + tail.offset, count: Int(count))
            return String(unsafeUninitializedCapacity: prefixCount + bytes.count * 2) { output in
                for index in 0..<prefixCount { output[index] = rest[index] }
                var out = prefixCount
                for byte in bytes {
                    output[out] = digits[Int(byte >> 4)]
                    output[out + 1] = digits[Int(byte & 0xF)]
                    out += 2
                }
                return out
            }
        }
    }

    private static let lowerDigits = Array("0123456789abcdef".utf8)
    private static let upperDigits = Array("0123456789ABCDEF".utf8)

    /// The value of a hex digit (one `isHex` accepted), without branches.
    @inline(__always)
    private static func nibble(_ byte: UInt8) -> UInt8 {
        (byte & 0xF) &+ 9 &* (byte >> 6)
    }

    /// Whether `text` is a canonical UUID with its letters in one case: nil when it is not one,
    /// else true for uppercase (a UUID of digits only counts as lowercase).
    private static func uuidCase(_ text: UnsafeRawBufferPointer) -> Bool? {
        var upper: Bool?
        for (index, byte) in text.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): continue
            case UInt8(ascii: "a")...UInt8(ascii: "f"):
                if upper == true { return nil }
                upper = false
            case UInt8(ascii: "A")...UInt8(ascii: "F"):
                if upper == false { return nil }
                upper = true
            default: return nil
            }
        }
        return upper ?? false
    }
}
