import Seeded

/// A seeded mutation engine: the same seed gives the same inputs in the same order.
struct Mutator {
    private var random: SeededRandom
    let maximumLength: Int

    init(seed: UInt64, maximumLength: Int) {
        random = SeededRandom(seed: seed)
        self.maximumLength = maximumLength
    }

    mutating func next() -> UInt64 { random.next() }

    mutating func below(_ bound: Int) -> Int { bound <= 1 ? 0 : random.next(bound) }

    private static let interesting: [UInt8] = [
        0, 1, 0x7F, 0x80, 0xFF, 0x1D, 0x0A, 0x0D, 0x22, 0x5C, 0x28, 0x29, 0x2C, 0x30, 0x39,
    ]

    /// `input` changed by one to eight random edits, taking tokens from `dictionary` and pieces
    /// of `other` (another corpus entry).
    mutating func mutate(_ input: [UInt8], dictionary: [[UInt8]], other: [UInt8]) -> [UInt8] {
        var bytes = input
        for _ in 0...below(8) {
            switch below(10) {
            case 0 where !bytes.isEmpty:  // flip a bit
                let index = below(bytes.count)
                bytes[index] ^= 1 << UInt8(below(8))
            case 1 where !bytes.isEmpty:  // an interesting byte
                bytes[below(bytes.count)] = Self.interesting[below(Self.interesting.count)]
            case 2 where !bytes.isEmpty:  // a random byte
                bytes[below(bytes.count)] = UInt8(truncatingIfNeeded: next())
            case 3 where !bytes.isEmpty:  // delete a run
                let start = below(bytes.count)
                bytes.removeSubrange(start..<min(bytes.count, start + 1 + below(16)))
            case 4 where !bytes.isEmpty:  // duplicate a run, sometimes many times
                let start = below(bytes.count)
                let run = Array(bytes[start..<min(bytes.count, start + 1 + below(32))])
                let times = below(4) == 0 ? 1 + below(64) : 1
                bytes.insert(contentsOf: Array(repeating: run, count: times).joined(), at: below(bytes.count + 1))
            case 5 where !dictionary.isEmpty, 6 where !dictionary.isEmpty:  // insert or overwrite with a token
                let token = dictionary[below(dictionary.count)]
                let at = below(bytes.count + 1)
                if below(2) == 0 || at + token.count > bytes.count {
                    bytes.insert(contentsOf: token, at: at)
                } else {
                    bytes.replaceSubrange(at..<(at + token.count), with: token)
                }
            case 7 where !other.isEmpty:  // splice in a piece of another input
                let start = below(other.count)
                let piece = other[start..<min(other.count, start + 1 + below(64))]
                bytes.insert(contentsOf: piece, at: below(bytes.count + 1))
            case 8 where !bytes.isEmpty:  // cut the end off
                bytes.removeLast(below(bytes.count) + 1)
            default:  // a small number change
                if !bytes.isEmpty {
                    let index = below(bytes.count)
                    bytes[index] = bytes[index] &+ UInt8(truncatingIfNeeded: below(7)) &- 3
                }
            }
        }
        if bytes.count > maximumLength { bytes.removeLast(bytes.count - maximumLength) }
        return bytes
    }
}
