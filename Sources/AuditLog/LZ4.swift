import CLZ4

/// LZ4 block compression over the system liblz4.
///
/// Frames in the log store the uncompressed length beside the compressed bytes, so the block
/// format (no frame header, no checksum of its own) is enough: the log carries its own CRC32C.
public enum LZ4 {
    /// Compresses `input` into a new LZ4 block.
    public static func compress(_ input: [UInt8]) -> [UInt8] {
        input.withUnsafeBytes { compress($0) }
    }

    /// Compresses the bytes at `source` into a new LZ4 block.
    public static func compress(_ source: UnsafeRawBufferPointer) -> [UInt8] {
        let bound = Int(LZ4_compressBound(Int32(source.count)))
        return [UInt8](unsafeUninitializedCapacity: bound) { buffer, initialized in
            initialized = Int(
                LZ4_compress_default(
                    source.baseAddress?.assumingMemoryBound(to: CChar.self),
                    UnsafeMutableRawPointer(buffer.baseAddress)?.assumingMemoryBound(to: CChar.self),
                    Int32(source.count),
                    Int32(bound)
                )
            )
        }
    }

    /// Decompresses an LZ4 block whose uncompressed length is known.
    ///
    /// - Throws: ``LZ4Error`` when the block is malformed or does not decompress to
    ///   exactly `originalCount` bytes.
    public static func decompress(_ input: [UInt8], originalCount: Int) throws -> [UInt8] {
        try input.withUnsafeBytes { source in try decompress(source, originalCount: originalCount) }
    }

    /// Decompresses the LZ4 block at `source` whose uncompressed length is known.
    public static func decompress(_ source: UnsafeRawBufferPointer, originalCount: Int) throws -> [UInt8] {
        guard originalCount >= 0, originalCount <= Int(Int32.max) else {
            throw LZ4Error(message: "uncompressed length \(originalCount) is out of range")
        }
        var written: Int32 = 0
        let output = [UInt8](unsafeUninitializedCapacity: originalCount) { buffer, initialized in
            written = LZ4_decompress_safe(
                source.baseAddress?.assumingMemoryBound(to: CChar.self),
                UnsafeMutableRawPointer(buffer.baseAddress)?.assumingMemoryBound(to: CChar.self),
                Int32(source.count),
                Int32(originalCount)
            )
            initialized = max(0, Int(written))
        }
        guard Int(written) == originalCount else {
            throw LZ4Error(
                message: written < 0
                    ? "malformed LZ4 block"
                    : "LZ4 block holds \(written) bytes, expected \(originalCount)"
            )
        }
        return output
    }

    /// The version of the linked liblz4, such as "1.9.4".
    public static var libraryVersion: String { String(cString: LZ4_versionString()) }
}

/// A block that liblz4 could not decompress.
public struct LZ4Error: Error, CustomStringConvertible {
    public let message: String
    public var description: String { "LZ4: \(message)" }
}
