/// Numbers attribute paths on the decoding thread, in the order first met, straight from the
/// payload's bytes (no string is made for a path already numbered); the paths new since the last
/// ``takeNew()`` travel with each decoded batch to the folds' ``AttributePaths``.
///
/// Paths are the datasheets' attribute names: a vocabulary of some hundreds, held for the run.
package struct AttributePathNumbers {
    /// No path numbered yet.
    package init() {}

    /// Open addressing over ``names``: each slot holds a name's number, or -1.
    private var slots = [Int32](repeating: -1, count: 64)
    private var hashes: [UInt64] = []
    private var names: [[UInt8]] = []
    private var new: [String] = []

    /// The number of the path spelled by `bytes` (UTF-8).
    package mutating func number(_ bytes: UnsafeRawBufferPointer) -> Int32 {
        let hash = Self.hash(bytes)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] >= 0 {
            let number = Int(slots[slot])
            if hashes[number] == hash && names[number].elementsEqual(bytes) { return Int32(number) }
            slot = (slot + 1) & mask
        }
        let number = Int32(names.count)
        slots[slot] = number
        hashes.append(hash)
        names.append(Array(bytes))
        new.append(String(decoding: bytes, as: UTF8.self))
        if names.count * 2 > slots.count { grow() }
        return number
    }

    /// The number of `path`.
    package mutating func number(_ path: String) -> Int32 {
        var path = path
        return path.withUTF8 { number(UnsafeRawBufferPointer($0)) }
    }

    /// The paths numbered since the last call.
    package mutating func takeNew() -> [String] {
        defer { new.removeAll() }
        return new
    }

    private mutating func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for number in hashes.indices {
            var slot = Int(truncatingIfNeeded: hashes[number]) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(number)
        }
    }

    /// FNV-1a: paths are short, and the table is the decoding thread's own.
    private static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }
}
