import Foundation

/// Naming and the 48-byte header of segment files (`segment-00000001.log`, …).
///
/// ```
/// offset size field
///      0    8 magic "IASEG004" (format 4; "IASEG002" is format 2, still read; formats 1 and 3 are refused)
///      8    8 position of the segment's first record
///     16   32 format 4: the canonical chain head before its first record (``RecordChain``);
///             format 2: the hash of the last format-2 frame before it (zeros for the first)
/// ```
/// Frames follow back to back, all in the segment's format. A segment is closed once it
/// reaches the configured size; the next one starts with the next frame. A log written in
/// format 2 is continued in format 4: the writer starts a new segment when it opens one.
enum Segment {
    static let headerSize = 48
    static let magic = Array("IASEG004".utf8)
    /// Format-2 segments: read and verified, never written.
    static let legacyMagic = Array("IASEG002".utf8)
    /// Magics of older formats this version does not read (format 3 chained records by an
    /// earlier rule and was written only by development builds).
    static let olderMagics = [Array("IASEG001".utf8), Array("IASEG003".utf8)]

    static func fileName(_ number: UInt32) -> String {
        let digits = String(number)
        return "segment-" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits + ".log"
    }

    /// The segment number in a file name made by ``fileName(_:)``, or nil for other files.
    static func number(fromFileName name: String) -> UInt32? {
        guard name.hasPrefix("segment-"), name.hasSuffix(".log") else { return nil }
        return UInt32(name.dropFirst(8).dropLast(4))
    }

    /// The segment numbers present in `directory`, ascending.
    static func list(in directory: URL) throws -> [UInt32] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .compactMap(number(fromFileName:)).sorted()
        } catch {
            throw EventLogError(
                .io, "cannot list the log directory \(directory.path) (check it exists and is readable)",
                context: ["file": directory.path])
        }
    }

    static func header(firstPosition: UInt64, previousHash: SHA256Digest.Bytes) -> [UInt8] {
        var writer = ByteWriter(capacity: headerSize)
        writer.bytes.append(contentsOf: magic)
        writer.fixed(firstPosition)
        withUnsafeBytes(of: previousHash) { writer.bytes.append(contentsOf: $0) }
        return writer.bytes
    }

    /// Reads a segment header: (first position, previous hash, whether it is format 2), or nil
    /// when it is not one.
    static func readHeader(_ file: LogFile) throws -> (
        firstPosition: UInt64, previousHash: SHA256Digest.Bytes, isLegacy: Bool
    )? {
        var bytes = [UInt8](repeating: 0, count: headerSize)
        let count = try bytes.withUnsafeMutableBytes { try file.read(into: $0, at: 0) }
        if count >= 8, olderMagics.contains(Array(bytes[0..<8])) {
            throw EventLogError(
                .io,
                "\(file.url.lastPathComponent) was written in an older log format (\(String(decoding: bytes[0..<8], as: UTF8.self))) that this version does not read (open it with the itemaudit that wrote it, or move the directory aside)",
                context: ["file": file.url.path])
        }
        let stored = count >= 8 ? Array(bytes[0..<8]) : []
        guard count == headerSize, stored == magic || stored == legacyMagic else { return nil }
        return bytes.withUnsafeBytes { raw in
            var hash = SHA256Digest.zero
            withUnsafeMutableBytes(of: &hash) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[16..<48])) }
            return (
                UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)), hash, stored == legacyMagic
            )
        }
    }
}
