/// Finds the first byte that is not well-formed UTF-8, streaming one byte at a time, so an
/// importer can name the line and byte offset of a Latin-1 `é` or a flipped bit and read the rest.
struct UTF8Validator {
    /// Continuation bytes still expected by the current sequence.
    private var needed = 0
    /// The range the next continuation byte must fall in (narrower after E0, ED, F0, F4).
    private var low: UInt8 = 0x80
    private var high: UInt8 = 0xBF
    /// The file offset and value of the current sequence's lead byte.
    private var sequenceStart = 0
    private var lead: UInt8 = 0

    /// Whether a multi-byte sequence is open (so an ASCII byte now would break it).
    var inSequence: Bool { needed > 0 }

    /// Feeds the byte at file `offset`; returns the offset and value of the first byte of a
    /// sequence that this byte shows to be malformed (that lead byte, or this byte when it cannot
    /// start one).
    mutating func feed(_ byte: UInt8, at offset: Int) -> (offset: Int, byte: UInt8)? {
        if needed > 0 {
            if byte >= low && byte <= high {
                needed -= 1
                low = 0x80
                high = 0xBF
                return nil
            }
            let start = (sequenceStart, lead)
            needed = 0
            low = 0x80
            high = 0xBF
            _ = feed(byte, at: offset)  // the breaking byte may start a sequence of its own
            return start
        }
        switch byte {
        case 0x00...0x7F: return nil
        case 0xC2...0xDF: needed = 1
        case 0xE0: (needed, low) = (2, 0xA0)
        case 0xED: (needed, high) = (2, 0x9F)
        case 0xE1...0xEF: needed = 2
        case 0xF0: (needed, low) = (3, 0x90)
        case 0xF4: (needed, high) = (3, 0x8F)
        case 0xF1...0xF3: needed = 3
        default: return (offset, byte)
        }
        sequenceStart = offset
        lead = byte
        return nil
    }

    /// At the end of the input: the offset of a sequence left unfinished, if any.
    mutating func finish() -> (offset: Int, byte: UInt8)? {
        defer { needed = 0 }
        return needed > 0 ? (sequenceStart, lead) : nil
    }

    /// The offset (counted from `base`) and value of the first malformed byte in `bytes`, or nil
    /// when all is UTF-8.
    static func firstInvalid(in bytes: UnsafeBufferPointer<UInt8>, base: Int = 0) -> (offset: Int, byte: UInt8)? {
        var index = 0
        // ASCII is the common case: skip it eight bytes at a time.
        while index + 8 <= bytes.count {
            let word = UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self)
            if word & 0x8080_8080_8080_8080 != 0 { break }
            index += 8
        }
        var validator = UTF8Validator()
        while index < bytes.count {
            if let bad = validator.feed(bytes[index], at: base + index) { return bad }
            index += 1
        }
        return validator.finish()
    }

    /// The message for a malformed byte: what it probably is and what to do.
    static func message(offset: Int, byte: UInt8) -> String {
        "byte \(offset) (0x\(String(byte, radix: 16, uppercase: true))) is not UTF-8 "
            + "(the file looks Latin-1 or Windows-1252: save it as UTF-8)"
    }
}
