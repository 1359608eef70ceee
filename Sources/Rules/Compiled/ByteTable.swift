/// A read-only hash table from UTF-8 keys to integers, looked up with raw bytes (no `String` made).
///
/// Exactly as a `[String: Int32]` would answer: ASCII queries are compared byte for byte with the
/// ASCII keys (for ASCII, byte equality is Swift's string equality) and with the ASCII spelling of
/// the non-ASCII keys that have one; a query with a non-ASCII byte goes through a `String`
/// dictionary, which compares canonically (the Kelvin sign equals `K`).
///
/// A non-ASCII key equals an ASCII string only when its canonical decomposition is ASCII, that is when
/// each of its scalars is ASCII or one of the three whose decomposition is: U+037E (`;`), U+1FEF
/// (`` ` ``) and U+212A (`K`). Such a key is stored under that ASCII spelling too (checked with `==`);
/// every other non-ASCII key keeps a non-ASCII scalar in every equivalent form, so no ASCII query
/// can equal it.
///
/// A final class over buffers allocated once, so a lookup touches no reference counts or bounds
/// checks. `@unchecked Sendable`: the buffers are written only in `init` and freed in `deinit`.
final class ByteTable: @unchecked Sendable {
    private struct Entry {
        var hash: UInt64
        var start: Int32
        var count: Int32
        var value: Int32
    }

    private let keys: UnsafeMutablePointer<UInt8>
    private let entries: UnsafeMutablePointer<Entry>
    private let mask: Int
    private let exact: [String: Int32]

    init(_ table: [String: Int32]) {
        exact = table
        var ascii: [(key: [UInt8], value: Int32)] = []
        for (key, value) in table.sorted(by: { $0.value < $1.value }) {
            if let spelling = Self.asciiSpelling(key) { ascii.append((spelling, value)) }
        }
        var capacity = 8
        while capacity < ascii.count * 3 { capacity *= 2 }
        mask = capacity - 1
        entries = .allocate(capacity: capacity)
        entries.initialize(repeating: Entry(hash: 0, start: 0, count: 0, value: -1), count: capacity)
        var keyBytes: [UInt8] = []
        for (bytes, value) in ascii {
            let hash = bytes.withUnsafeBufferPointer { Self.hash($0).hash }
            var index = Int(truncatingIfNeeded: hash) & mask
            while entries[index].value >= 0 { index = (index + 1) & mask }
            entries[index] = Entry(hash: hash, start: Int32(keyBytes.count), count: Int32(bytes.count), value: value)
            keyBytes += bytes
        }
        keys = .allocate(capacity: max(keyBytes.count, 1))
        keys.initialize(from: keyBytes, count: keyBytes.count)
    }

    /// The ASCII string equal to `key` (itself when ASCII), or nil when no ASCII string equals it.
    static func asciiSpelling(_ key: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        for scalar in key.unicodeScalars {
            switch scalar.value {
            case 0..<0x80: bytes.append(UInt8(scalar.value))
            case 0x037E: bytes.append(UInt8(ascii: ";"))
            case 0x1FEF: bytes.append(UInt8(ascii: "`"))
            case 0x212A: bytes.append(UInt8(ascii: "K"))
            default: return nil
            }
        }
        return String(decoding: bytes, as: UTF8.self) == key ? bytes : nil
    }

    deinit {
        keys.deallocate()
        entries.deallocate()
    }

    /// A hash of the bytes, eight at a time, and whether any byte is not ASCII.
    @inline(__always)
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> (hash: UInt64, nonASCII: Bool) {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        guard let base = bytes.baseAddress else { return (hash, false) }
        let raw = UnsafeRawPointer(base)
        var high: UInt64 = 0
        var index = 0
        while index + 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            high |= word
            hash = (hash ^ word) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 31
            index += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while index < bytes.count {
            tail |= UInt64(bytes[index]) << shift
            shift += 8
            index += 1
        }
        high |= tail
        hash = (hash ^ tail) &* 0x94D0_49BB_1331_11EB
        hash ^= hash >> 29
        return (hash, high & 0x8080_8080_8080_8080 != 0)
    }

    /// The value for the key spelled by `bytes`, if any.
    func lookup(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32? {
        let (hash, nonASCII) = Self.hash(bytes)
        if nonASCII { return exact[String(decoding: bytes, as: UTF8.self)] }
        var index = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = entries[index]
            if entry.value < 0 { return nil }
            if entry.hash == hash, Int(entry.count) == bytes.count, same(keys + Int(entry.start), bytes) {
                return entry.value
            }
            index = (index + 1) & mask
        }
    }

    /// Whether the key's bytes equal `bytes` (of the same count), eight at a time.
    @inline(__always)
    private func same(_ key: UnsafeMutablePointer<UInt8>, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let left = UnsafeRawPointer(key)
        let right = UnsafeRawPointer(base)
        var offset = 0
        while offset + 8 <= bytes.count {
            if left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                != right.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            {
                return false
            }
            offset += 8
        }
        while offset < bytes.count {
            if key[offset] != bytes[offset] { return false }
            offset += 1
        }
        return true
    }

    /// The value for a string key.
    func lookup(_ key: String) -> Int32? {
        var key = key
        return key.withUTF8 { lookup($0) }
    }
}
