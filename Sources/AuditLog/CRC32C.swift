import CCRC32C

/// CRC32C (Castagnoli), the checksum of every frame: SSE4.2 when the CPU has it.
public enum CRC32C {
    /// The CRC32C of `bytes`, continuing from `crc` (0 to start).
    public static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return crc }
        return itemaudit_crc32c(crc, base, bytes.count)
    }

    /// The CRC32C of `bytes`, continuing from `crc` (0 to start).
    public static func checksum(_ bytes: [UInt8], continuing crc: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0, continuing: crc) }
    }
}
