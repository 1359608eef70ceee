/// Follows the log's chains while its frames are read in order, for recovery and verification:
/// the canonical record chain over every record (``RecordChain``), and the format-2 frame chain
/// of segments written in format 2.
///
/// A frame is checked in two steps: ``problem(frame:header:storedCRC:expectedPosition:)`` before
/// its records are decoded, then each record goes to ``add(_:commandID:)`` and
/// ``finish(_:)`` compares a format-4 frame's stored head with the one computed.
struct ChainTracker {
    /// The canonical head after the last record added.
    var canonical: CanonicalHasher
    /// The hash of the last format-2 frame (zeros before the first).
    private(set) var legacyFrameHash: SHA256Digest.Bytes
    /// Whether the segment being read is format 2.
    private(set) var segmentIsLegacy = false

    init(canonicalHead: SHA256Digest.Bytes = SHA256Digest.zero, legacyFrameHash: SHA256Digest.Bytes = SHA256Digest.zero)
    {
        canonical = CanonicalHasher(head: canonicalHead)
        self.legacyFrameHash = legacyFrameHash
    }

    var canonicalHead: SHA256Digest.Bytes { canonical.head }

    /// Starts a segment whose header says it is format 2 or not and names `previousHash`; false
    /// when that hash does not continue the chain of its format.
    mutating func beginSegment(isLegacy: Bool, previousHash: SHA256Digest.Bytes) -> Bool {
        segmentIsLegacy = isLegacy
        return previousHash == (isLegacy ? legacyFrameHash : canonical.head)
    }

    /// Continues inside a segment (after a checkpoint) whose format is known.
    mutating func resume(inLegacySegment isLegacy: Bool) { segmentIsLegacy = isLegacy }

    /// What is wrong with a frame before its records are read: its CRC, its first position, its
    /// format against the segment's, and (format 2) its frame hash. Nil when it passes.
    mutating func problem(
        frame: UnsafeRawBufferPointer, header: FrameHeader, storedCRC: UInt32, expectedPosition: UInt64
    ) -> String? {
        guard FrameHeader.checksum(frame: frame) == storedCRC else { return "CRC32C mismatch (bytes changed or torn)" }
        guard header.firstPosition == expectedPosition else {
            return "the frame starts at position \(header.firstPosition), expected \(expectedPosition)"
        }
        guard header.isLegacy == segmentIsLegacy else {
            return "a format-\(header.isLegacy ? 2 : 4) frame in a format-\(segmentIsLegacy ? 2 : 4) segment"
        }
        if header.isLegacy {
            guard FrameHeader.chainHash(previous: legacyFrameHash, frame: frame) == header.hash else {
                return "hash chain broken (the frame was altered and its CRC recomputed)"
            }
        }
        return nil
    }

    /// Adds one decoded record of the frame to the canonical chain.
    mutating func add(_ record: EventRecord, commandID: String? = nil) {
        canonical.add(record, commandID: commandID)
    }

    /// Ends a frame whose records were all added: nil when its chain checks out.
    mutating func finish(_ header: FrameHeader) -> String? {
        if header.isLegacy {
            legacyFrameHash = header.hash
            return nil
        }
        guard header.hash == canonical.head else {
            return "hash chain broken (a record was altered and the frame's CRC recomputed)"
        }
        return nil
    }
}
