/// Case-insensitive substring search on UTF-8 bytes, without Foundation: ASCII letters and the
/// Latin-1 letters of Finnish and Swedish (Ä, Ö, Å, …) are folded to lower case.
enum TextSearch {
    /// The text's bytes with letters folded to lower case.
    static func folded(_ text: some StringProtocol) -> [UInt8] {
        folded(bytes: Array(text.utf8))
    }

    /// The bytes with letters folded to lower case.
    static func folded(bytes: some Sequence<UInt8>) -> [UInt8] {
        var bytes = Array(bytes)
        bytes.withUnsafeMutableBufferPointer { fold($0) }
        return bytes
    }

    /// Folds letters to lower case in place.
    static func fold(_ bytes: UnsafeMutableBufferPointer<UInt8>) {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= 0x41, byte <= 0x5A {
                bytes[index] = byte | 0x20
            } else if byte == 0xC3, index + 1 < bytes.count, bytes[index + 1] >= 0x80, bytes[index + 1] <= 0x9E,
                bytes[index + 1] != 0x97
            {
                bytes[index + 1] += 0x20
                index += 1
            }
            index += 1
        }
    }

    /// Every start offset of `needle` in `haystack`.
    static func offsets(of needle: [UInt8], in haystack: [UInt8]) -> [Int] {
        var result: [Int] = []
        forEachOffset(of: needle, in: haystack) { offset in
            result.append(offset)
            return true
        }
        return result
    }

    /// Whether `needle` occurs in `haystack`.
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        haystack.withUnsafeBufferPointer { hay in needle.withUnsafeBufferPointer { contains(hay, $0) } }
    }

    /// Whether `needle` occurs in `haystack`.
    static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        var found = false
        forEachOffset(of: needle, in: haystack) { _ in
            found = true
            return false
        }
        return found
    }

    /// Calls `body` with each offset where `needle` starts; stops when it returns false.
    static func forEachOffset(of needle: [UInt8], in haystack: [UInt8], _ body: (Int) -> Bool) {
        haystack.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { forEachOffset(of: $0, in: hay, body) }
        }
    }

    /// Calls `body` with each offset where `needle` starts; stops when it returns false.
    static func forEachOffset(
        of pin: UnsafeBufferPointer<UInt8>, in hay: UnsafeBufferPointer<UInt8>, _ body: (Int) -> Bool
    ) {
        guard let first = pin.first, pin.count <= hay.count else { return }
        let last = hay.count - pin.count
        var start = 0
        while start <= last {
            if hay[start] == first {
                var matched = true
                var offset = 1
                while offset < pin.count {
                    if hay[start + offset] != pin[offset] {
                        matched = false
                        break
                    }
                    offset += 1
                }
                if matched, !body(start) { return }
            }
            start += 1
        }
    }

    /// Whether the byte before `offset` is not a letter (or `offset` is the start).
    static func startsWord(at offset: Int, in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        guard offset > 0 else { return true }
        let before = haystack[offset - 1]
        if before >= 0x61 && before <= 0x7A { return false }
        if before >= 0x80 { return false }  // a byte of a non-ASCII letter
        return true
    }
}
