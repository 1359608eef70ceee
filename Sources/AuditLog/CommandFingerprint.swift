import Crypto

/// The SHA-256 of a command's canonical content, stored with its command id so that a resend of
/// the same command is told apart from a different command sent under an id already used.
///
/// The log stores it once per append, in the first record (see ``CommandIDCodec``), so it
/// survives reopening and index rebuilds. The caller decides what the canonical content is.
public struct CommandFingerprint: Sendable, Hashable, CustomStringConvertible {
    // Four words, not an array: the writer's index keeps it as plain data.
    var words: SHA256Digest.Bytes

    static let byteCount = 32

    /// The SHA-256 of `content`.
    public init(sha256Of content: some Sequence<UInt8>) {
        words = SHA256Digest.bytes(of: SHA256.hash(data: Array(content)))
    }

    /// The fingerprint stored in these 32 bytes.
    init(stored bytes: UnsafeRawBufferPointer) {
        var words = SHA256Digest.zero
        withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes.prefix(32))) }
        self.words = words
    }

    /// Calls `body` with the 32 bytes of the digest.
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeBytes(of: words, body)
    }

    /// The digest as 64 lowercase hex digits.
    public var hex: String { SHA256Digest.hex(words) }

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
