/// The 64-bit hash the index keys stream ids and command ids by, in memory and on disk.
///
/// FNV-1a over the UTF-8 bytes with a final avalanche (from SplitMix64), so the on-disk runs
/// are spread evenly enough for interpolation search. Stable across runs and machines. `mask`
/// narrows it (tests force collisions with a small mask); every hit is verified against the
/// real id, so a collision only costs a lookup, never a wrong answer.
struct KeyHash: Sendable, Hashable {
    var mask: UInt64

    static let full = KeyHash(mask: .max)

    func callAsFunction(_ text: String) -> UInt64 {
        var text = text
        return text.withUTF8 { self(UnsafeRawBufferPointer($0)) }
    }

    func callAsFunction(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        hash = (hash ^ (hash >> 30)) &* 0xBF58_476D_1CE4_E5B9
        hash = (hash ^ (hash >> 27)) &* 0x94D0_49BB_1331_11EB
        return (hash ^ (hash >> 31)) & mask
    }
}
