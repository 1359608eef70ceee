import Foundation

/// How far the log had been acknowledged to callers: the `acknowledged` file in the log directory.
///
/// ```
/// "IAACK001" | segment u32 | end offset u64 | last position u64 | CRC32C of the 28 bytes before it u32
/// ```
/// The writer rewrites these 32 bytes in place after every durable group commit and before it
/// answers the appends, so after a crashed process the mark names exactly the end of what was
/// acknowledged. It is synced when the log is opened, at checkpoints and on close; after a power
/// failure it may lag behind the acknowledged end by the commits since then (never run ahead of
/// it). Recovery cuts a damaged tail on its own only when the damage lies past this mark (and the
/// checkpoint's end): bytes the writer never acknowledged. See `docs/log-recovery.md`.
struct AcknowledgedMark: Hashable, Sendable, Comparable {
    static let fileName = "acknowledged"
    static let magic = Array("IAACK001".utf8)
    static let size = 32

    /// The segment and the byte offset in it where the acknowledged part of the log ends.
    var segment: UInt32
    var endOffset: UInt64
    /// The last acknowledged position.
    var lastPosition: UInt64

    static func < (a: AcknowledgedMark, b: AcknowledgedMark) -> Bool {
        (a.segment, a.endOffset) < (b.segment, b.endOffset)
    }

    /// True when the log location (`segment`, `offset`) lies before this mark's end.
    func covers(segment: UInt32, offset: UInt64) -> Bool {
        (segment, offset) < (self.segment, endOffset)
    }

    func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: Self.size)
        writer.bytes.append(contentsOf: Self.magic)
        writer.fixed(segment)
        writer.fixed(endOffset)
        writer.fixed(lastPosition)
        writer.fixed(CRC32C.checksum(writer.bytes))
        return writer.bytes
    }

    static func decode(_ bytes: [UInt8]) -> AcknowledgedMark? {
        guard bytes.count >= size, Array(bytes[0..<8]) == magic else { return nil }
        return bytes.withUnsafeBytes { raw -> AcknowledgedMark? in
            guard
                CRC32C.checksum(UnsafeRawBufferPointer(rebasing: raw[0..<28]))
                    == UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 28, as: UInt32.self))
            else { return nil }
            return AcknowledgedMark(
                segment: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self)),
                endOffset: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 12, as: UInt64.self)),
                lastPosition: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 20, as: UInt64.self)))
        }
    }

    /// The mark stored in `directory`, or nil when there is none or it is damaged.
    static func load(from directory: URL) -> AcknowledgedMark? {
        guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(fileName).path) else {
            return nil
        }
        return decode([UInt8](data))
    }

    /// Rewrites the mark in `file` (opened on ``fileName``); synced only when `durable`.
    func write(to file: LogFile, durable: Bool) throws {
        try encoded().withUnsafeBytes { try file.write($0, at: 0) }
        if durable { try file.sync() }
    }
}
