import Crypto

/// The fixed 72-byte header in front of every frame's LZ4-compressed body.
///
/// ```
/// offset size field
///      0    4 magic "IAF4" (format 4), or "IAF2" in format-2 segments
///      4    4 CRC32C of bytes 8..<72 and the body
///      8    4 body length (compressed bytes)
///     12    4 raw length (uncompressed bytes)
///     16    8 first position
///     24    4 record count
///     28    4 flags (0: LZ4 block)
///     32    8 recorded-at (microseconds since the epoch)
///     40   32 format 4: the canonical chain head after the frame's last record (``RecordChain``)
///             format 2: SHA-256(previous format-2 frame's hash ‖ bytes 8..<40 ‖ body)
/// ```
/// All integers are little-endian. The CRC catches torn and flipped bytes cheaply; the hash
/// catches a frame rewritten with a recomputed CRC. Format 4 chains each record's canonical
/// content, so the head does not depend on how appends were grouped into frames and a store
/// on a database computes the same head; format 2 chained the compressed frames.
struct FrameHeader {
    static let size = 72
    static let magic: UInt32 = 0x3446_4149  // "IAF4" little-endian
    /// The magic of format-2 frames, still read and verified with their own chain rule.
    static let legacyMagic: UInt32 = 0x3246_4149  // "IAF2" little-endian
    /// A frame's body may not exceed this; larger lengths in a header mean damage.
    static let maximumBodyLength = 256 << 20

    var bodyLength: UInt32
    var rawLength: UInt32
    var firstPosition: UInt64
    var recordCount: UInt32
    var flags: UInt32
    var recordedAt: Int64
    var hash: SHA256Digest.Bytes
    /// True for a format-2 frame, whose hash chains frames rather than records.
    var isLegacy = false

    var lastPosition: UInt64 { firstPosition + UInt64(recordCount) - 1 }
    var totalLength: Int { Self.size + Int(bodyLength) }

    /// Why a header cannot be read: the magic, lengths or counts are impossible.
    static func parse(_ frame: UnsafeRawBufferPointer) -> (FrameHeader, crc: UInt32)? {
        guard frame.count >= size else { return nil }
        let stored = UInt32(littleEndian: frame.loadUnaligned(fromByteOffset: 0, as: UInt32.self))
        guard stored == magic || stored == legacyMagic else { return nil }
        func u32(_ offset: Int) -> UInt32 {
            UInt32(littleEndian: frame.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        }
        func u64(_ offset: Int) -> UInt64 {
            UInt64(littleEndian: frame.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
        var hash = SHA256Digest.zero
        withUnsafeMutableBytes(of: &hash) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: frame[40..<72])) }
        let header = FrameHeader(
            bodyLength: u32(8), rawLength: u32(12), firstPosition: u64(16), recordCount: u32(24),
            flags: u32(28), recordedAt: Int64(bitPattern: u64(32)), hash: hash, isLegacy: stored == legacyMagic
        )
        guard header.recordCount > 0, Int(header.bodyLength) <= maximumBodyLength,
            Int(header.rawLength) <= maximumBodyLength * 2, header.flags == 0, header.firstPosition > 0
        else { return nil }
        return (header, u32(4))
    }

    /// CRC32C over header bytes 8..<72 and the body, the value stored at offset 4.
    static func checksum(frame: UnsafeRawBufferPointer) -> UInt32 {
        CRC32C.checksum(UnsafeRawBufferPointer(rebasing: frame[8...]))
    }

    /// A format-2 frame's chained hash: SHA-256 of the previous frame's hash, header bytes 8..<40 and the body.
    static func chainHash(previous: SHA256Digest.Bytes, frame: UnsafeRawBufferPointer) -> SHA256Digest.Bytes {
        var hasher = SHA256()
        withUnsafeBytes(of: previous) { hasher.update(bufferPointer: $0) }
        hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: frame[8..<40]))
        hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: frame[size...]))
        return SHA256Digest.bytes(of: hasher.finalize())
    }
}

/// A SHA-256 digest kept as 32 inline bytes (no allocation per frame).
enum SHA256Digest {
    typealias Bytes = (UInt64, UInt64, UInt64, UInt64)
    static let zero: Bytes = (0, 0, 0, 0)

    static func bytes(of digest: Crypto.SHA256.Digest) -> Bytes {
        var result = zero
        withUnsafeMutableBytes(of: &result) { target in
            digest.withUnsafeBytes { target.copyMemory(from: $0) }
        }
        return result
    }

    static func hex(_ value: Bytes) -> String {
        withUnsafeBytes(of: value) { raw in
            raw.map { byte in
                let digits = Array("0123456789abcdef")
                return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
            }
            .joined()
        }
    }

    static func equal(_ a: Bytes, _ b: Bytes) -> Bool { a == b }
}
