import Foundation

/// The text forms of proofs an auditor carries away: an inclusion proof as C2SP `tlog-proof`
/// (c2sp.org/tlog-proof), and a consistency proof in the same shape (no C2SP form exists):
///
/// ```
/// c2sp.org/tlog-proof@v1          itemaudit.example/tlog-consistency@v1
/// extra <base64 leaf data>        old <old tree size>
/// index <leaf index>              <base64 hash>…
/// <base64 hash>…
///                                 <the newer signed checkpoint, verbatim>
/// <the signed checkpoint, verbatim>
/// ```
public enum ProofText {
    /// The first line of an inclusion proof.
    public static let inclusionHeader = "c2sp.org/tlog-proof@v1"
    /// The first line of a consistency proof.
    public static let consistencyHeader = "itemaudit.example/tlog-consistency@v1"

    /// An inclusion proof of leaf `index` (with its leaf data as `extra`) in the checkpoint's tree.
    public static func inclusion(leafData: [UInt8], index: Int, proof: [[UInt8]], checkpoint: String) -> String {
        var text = "\(inclusionHeader)\nextra \(Data(leafData).base64EncodedString())\nindex \(index)\n"
        for hash in proof { text += Data(hash).base64EncodedString() + "\n" }
        return text + "\n" + checkpoint
    }

    /// A consistency proof from the tree of `oldSize` to the checkpoint's tree.
    public static func consistency(oldSize: Int, proof: [[UInt8]], checkpoint: String) -> String {
        var text = "\(consistencyHeader)\nold \(oldSize)\n"
        for hash in proof { text += Data(hash).base64EncodedString() + "\n" }
        return text + "\n" + checkpoint
    }

    /// What a proof text holds.
    public struct Parsed: Sendable, Hashable {
        /// The leaf data (`extra`) of an inclusion proof.
        public var extra: [UInt8]?
        /// The leaf index (inclusion) or the old tree size (consistency).
        public var number: Int
        public var hashes: [[UInt8]]
        public var checkpoint: SignedCheckpoint
    }

    /// Reads a proof written by ``inclusion(leafData:index:proof:checkpoint:)`` or
    /// ``consistency(oldSize:proof:checkpoint:)``.
    /// - Throws: ``SignedNoteError`` naming the line that is wrong.
    public static func parse(_ text: String) throws(SignedNoteError) -> Parsed {
        guard let blank = text.range(of: "\n\n") else {
            throw SignedNoteError("the proof has no blank line before its checkpoint")
        }
        var lines = text[..<blank.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)[...]
        let header = lines.popFirst()
        guard header == Substring(inclusionHeader) || header == Substring(consistencyHeader) else {
            throw SignedNoteError("line 1 of the proof is not '\(inclusionHeader)' or '\(consistencyHeader)'")
        }
        var extra: [UInt8]?
        if let line = lines.first, line.hasPrefix("extra ") {
            guard let bytes = Data(base64Encoded: String(line.dropFirst(6))) else {
                throw SignedNoteError("the proof's extra line is not base64")
            }
            extra = Array(bytes)
            lines.removeFirst()
        }
        let key = header == Substring(inclusionHeader) ? "index " : "old "
        guard let line = lines.popFirst(), line.hasPrefix(key), let number = Int(line.dropFirst(key.count)), number >= 0
        else {
            throw SignedNoteError("the proof has no '\(key)<number>' line")
        }
        var hashes: [[UInt8]] = []
        for line in lines {
            guard let hash = Data(base64Encoded: String(line)).map(Array.init), hash.count == 32 else {
                throw SignedNoteError("the proof line '\(line.prefix(60))' is not a base64 SHA-256 hash")
            }
            hashes.append(hash)
        }
        let checkpoint = try SignedCheckpoint(String(text[blank.upperBound...]))
        return Parsed(extra: extra, number: number, hashes: hashes, checkpoint: checkpoint)
    }
}
