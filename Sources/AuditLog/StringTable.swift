import Foundation

/// Returns the same `String` for the same bytes seen recently, so that decoding a record whose
/// stream id, event type or actor repeats neither allocates nor validates UTF-8 again.
///
/// A direct-mapped table: 64 slots chosen by a hash of the bytes, each remembering one key of up
/// to 32 bytes in one preallocated block. A miss replaces the slot; longer keys are not shared.
/// Nothing is allocated per lookup once the table exists.
struct StringTable {
    static let slotCount = 64
    private static let keyLimit = 32
    private var keys = [UInt8](repeating: 0, count: slotCount * keyLimit)
    /// The key length of each slot; -1 when the slot is empty.
    private var lengths = [Int](repeating: -1, count: slotCount)
    private var values = [String](repeating: "", count: slotCount)
    /// How often each slot was filled: a value taken from a slot is current while this is unchanged.
    private var generations = [Int](repeating: 0, count: slotCount)

    init() {}

    /// Sets `field` to the string for `bytes` unless it already holds it: `slot` remembers which
    /// entry `field` was last set from (-1 at first), so a repeat costs no reference counting.
    mutating func assign(_ bytes: UnsafeRawBufferPointer, to field: inout String, slot memo: inout Int) {
        guard let slot = entry(bytes) else {
            field = String(decoding: bytes, as: UTF8.self)
            memo = -1
            return
        }
        if slot.isHit, memo == slot.index { return }
        field = slot.isHit ? values[slot.index] : fill(slot.index, bytes)
        memo = slot.index
    }

    /// The slot that holds `bytes` (filled with them on a miss), or nil when they are not shared.
    mutating func intern(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard let slot = entry(bytes) else { return nil }
        if !slot.isHit { _ = fill(slot.index, bytes) }
        return slot.index
    }

    /// The string in `slot` (see ``intern(_:)``).
    func value(_ slot: Int) -> String { values[slot] }

    /// How often `slot` was filled (see ``intern(_:)``).
    func generation(_ slot: Int) -> Int { generations[slot] }

    /// The slot for `bytes` and whether it holds them; nil when they are empty or too long to share.
    private func entry(_ bytes: UnsafeRawBufferPointer) -> (index: Int, isHit: Bool)? {
        let count = bytes.count
        guard count > 0, count <= Self.keyLimit else { return nil }
        let slot = Self.slot(bytes)
        let hit =
            lengths[slot] == count
            && keys.withUnsafeBytes({ memcmp($0.baseAddress! + slot * Self.keyLimit, bytes.baseAddress!, count) }) == 0
        return (slot, hit)
    }

    /// Puts `bytes` and their string into `slot`, replacing what it held.
    private mutating func fill(_ slot: Int, _ bytes: UnsafeRawBufferPointer) -> String {
        let value = String(decoding: bytes, as: UTF8.self)
        keys.withUnsafeMutableBytes {
            ($0.baseAddress! + slot * Self.keyLimit).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        }
        lengths[slot] = bytes.count
        values[slot] = value
        generations[slot] += 1
        return value
    }

    /// The slot for `bytes` (1...32 of them): a multiplicative hash of the length and the first
    /// and last eight bytes, which tells apart ids that differ in their leading or trailing digits.
    private static func slot(_ bytes: UnsafeRawBufferPointer) -> Int {
        let count = bytes.count
        var hash = UInt64(truncatingIfNeeded: count)
        if count >= 8 {
            hash ^= bytes.loadUnaligned(as: UInt64.self)
            hash = (hash &* 0x9E37_79B9_7F4A_7C15) ^ (hash >> 29)
            hash ^= bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        } else {
            for byte in bytes { hash = (hash << 8) | UInt64(byte) }
        }
        hash = (hash ^ (hash >> 31)) &* 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: hash >> 58)
    }
}
