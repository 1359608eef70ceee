/// A record's leaf in the log's Merkle tree: a fixed encoding of the record's identity that
/// depends on no frame, segment or store, so the same history has the same tree in every store
/// (docs/architecture.md, "The log's Merkle tree").
///
/// The leaf data are the last 56 of the record's link bytes (``RecordChain``), integers
/// little-endian; the tree hashes them as RFC 6962 does, SHA-256(0x00 ‖ leaf data):
///
/// ```
/// offset size field
///      0    8 position (u64)
///      8    8 stream version (u64)
///     16    8 recorded-at, µs since the epoch (i64)
///     24   32 digest(n): SHA-256 of the record's content bytes (``RecordChain``)
/// ```
/// The chain's previous head stays out: a leaf stands for its record alone, and the tree, not
/// the chain, ties it to the records before it.
public enum LogTreeLeaf {
    /// The length of a leaf's data.
    public static let dataCount = 56

    /// The leaf data of the record with these fields and content digest.
    /// - Precondition: `digest` holds 32 bytes.
    public static func data(position: UInt64, streamVersion: UInt64, recordedAt: Int64, digest: [UInt8]) -> [UInt8] {
        precondition(digest.count == 32, "a content digest is 32 bytes")
        var data: [UInt8] = []
        data.reserveCapacity(dataCount)
        withUnsafeBytes(of: position.littleEndian) { data.append(contentsOf: $0) }
        withUnsafeBytes(of: streamVersion.littleEndian) { data.append(contentsOf: $0) }
        withUnsafeBytes(of: recordedAt.littleEndian) { data.append(contentsOf: $0) }
        data.append(contentsOf: digest)
        return data
    }

    /// The leaf data of `record`.
    public static func data(of record: EventRecord) -> [UInt8] {
        data(
            position: record.position, streamVersion: record.streamVersion,
            recordedAt: record.recordedAt.microsecondsSinceEpoch, digest: RecordChain.digest(of: record))
    }
}
