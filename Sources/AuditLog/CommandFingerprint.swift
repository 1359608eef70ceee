/// The SHA-256 of a command's canonical content, cut to its first 128 bits, stored with its
/// command id so that a resend of the same command is told apart from a different command sent
/// under an id already used.
///
/// The log stores it once per append, in the first record (see ``CommandIDCodec``), so it
/// survives reopening and index rebuilds. 128 bits keep an accidental or crafted match out of
/// reach (a second preimage costs about 2^128 hashes) at half the bytes of the whole digest,
/// which matters because every append stores one and random digests do not compress.
/// The caller decides what the canonical content is.
public struct CommandFingerprint: Sendable, Hashable, CustomStringConvertible {
    // Four words, not an array: the writer's index keeps it as plain data.
    var words: SHA256Digest.Bytes

    /// Bytes stored: the first half of the SHA-256 digest.
    static let byteCount = 16

    /// The SHA-256 of `content`, cut to 128 bits.
    public init(sha256Of content: some Sequence<UInt8>) {
        // Hashed on the stack with the log's own SHA-256, in place when the bytes are contiguous
        // (a native string's UTF-8): every appended command is fingerprinted.
        words =
            content.withContiguousStorageIfAvailable { SHA256Digest.hash(UnsafeRawBufferPointer($0)) }
            ?? Array(content).withUnsafeBytes { SHA256Digest.hash($0) }
        words.2 = 0
        words.3 = 0
    }

    /// The fingerprint stored in these ``byteCount`` bytes.
    init(stored bytes: UnsafeRawBufferPointer) {
        var words = SHA256Digest.zero
        withUnsafeMutableBytes(of: &words) {
            $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes.prefix(Self.byteCount)))
        }
        self.words = words
    }

    /// Calls `body` with the ``byteCount`` stored bytes.
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeBytes(of: words) { try body(UnsafeRawBufferPointer(rebasing: $0.prefix(Self.byteCount))) }
    }

    /// The fingerprint as 32 lowercase hex digits.
    public var hex: String { String(SHA256Digest.hex(words).prefix(Self.byteCount * 2)) }

    public var description: String { hex }

    public static func == (a: CommandFingerprint, b: CommandFingerprint) -> Bool {
        a.words == b.words
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }
}
