import AuditLog
import Foundation

/// The photo store's pack files: `<blobs>/packs/<8 digits>.pack`, written only by appending.
///
///     file:    "IAPHOTO1"
///     photo:   tag 1, byte count u32, SHA-256 of the bytes (32), the bytes
///     commit:  tag 2, offset of the group's first record u64, CRC32C of the group's records u32,
///              CRC32C of the commit's first 13 bytes u32
///     closed:  tag 3, its own offset u64, CRC32C of those 9 bytes u32
///
/// Integers are little-endian. Photos are written in groups, each ended by a commit and synced
/// once: a photo counts only once a valid commit follows it. A group is synced before the next
/// one is written, so after a crash only the groups since the last `closed` can be torn; the
/// writer checks their CRC32C when it opens the pack and cuts the file before the first bad one.
enum PhotoPackFormat {
    static let magic = Array("IAPHOTO1".utf8)
    static let photoTag: UInt8 = 1
    static let commitTag: UInt8 = 2
    static let closedTag: UInt8 = 3
    static let photoHeaderSize = 37
    static let commitSize = 17
    static let closedSize = 13
    /// A new pack is started once the current one would grow past this (``PhotoPacks/packLimit``).
    static let packLimit: UInt64 = 64 << 20

    static func fileName(_ pack: UInt32) -> String {
        let digits = String(pack)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits + ".pack"
    }

    /// The pack number of a file name, nil when it is not a pack.
    static func packNumber(_ name: String) -> UInt32? {
        guard name.hasSuffix(".pack"), name.utf8.count == 13 else { return nil }
        return UInt32(name.prefix(8))
    }

    static func appendPhotoHeader(_ key: PhotoKey, count: Int, to output: inout ByteWriter) {
        output.fixed(photoTag)
        output.fixed(UInt32(count))
        key.appendBytes(to: &output.bytes)
    }

    static func appendCommit(groupStart: UInt64, groupCRC: UInt32, to output: inout ByteWriter) {
        let start = output.bytes.count
        output.fixed(commitTag)
        output.fixed(groupStart)
        output.fixed(groupCRC)
        output.fixed(CRC32C.checksum(Array(output.bytes[start...])))
    }

    static func closed(at offset: UInt64) -> [UInt8] {
        var output = ByteWriter()
        output.fixed(closedTag)
        output.fixed(offset)
        output.fixed(CRC32C.checksum(output.bytes))
        return output.bytes
    }

    /// The little-endian integer at `offset` of `bytes`.
    static func field<T: FixedWidthInteger>(_: T.Type, _ bytes: [UInt8], at offset: Int) -> T {
        bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: T.self)) }
    }
}

/// A photo's SHA-256 as four words: the key of the pack index (a quarter of the hex string's size).
struct PhotoKey: Hashable, Sendable {
    var words: (UInt64, UInt64, UInt64, UInt64)

    init(words: (UInt64, UInt64, UInt64, UInt64)) { self.words = words }

    /// From the 32 bytes of a digest.
    init(digest: some Sequence<UInt8>) {
        var values: [UInt64] = [0, 0, 0, 0]
        for (index, byte) in digest.prefix(32).enumerated() {
            values[index / 8] = values[index / 8] << 8 | UInt64(byte)
        }
        words = (values[0], values[1], values[2], values[3])
    }

    /// From 64 lower-case hex digits; nil for anything else.
    init?(hex: String) {
        var values: [UInt64] = [0, 0, 0, 0]
        var count = 0
        for digit in hex.utf8 {
            let value: UInt8
            switch digit {
            case 48...57: value = digit - 48
            case 97...102: value = digit - 87
            default: return nil
            }
            guard count < 64 else { return nil }
            values[count / 16] = values[count / 16] << 4 | UInt64(value)
            count += 1
        }
        guard count == 64 else { return nil }
        words = (values[0], values[1], values[2], values[3])
    }

    /// The 32 digest bytes, in order.
    func appendBytes(to output: inout [UInt8]) {
        for word in [words.0, words.1, words.2, words.3] {
            withUnsafeBytes(of: word.bigEndian) { output.append(contentsOf: $0) }
        }
    }

    static func == (lhs: PhotoKey, rhs: PhotoKey) -> Bool {
        lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1 && lhs.words.2 == rhs.words.2
            && lhs.words.3 == rhs.words.3
    }

    func hash(into hasher: inout Hasher) {
        // Already uniformly distributed: one word is enough.
        hasher.combine(words.0)
    }
}

/// Where a photo's bytes are.
struct PhotoLocation: Sendable {
    var pack: UInt32
    var offset: UInt64
    var count: UInt32
}
