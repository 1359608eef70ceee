import Foundation

/// The text of a C2SP checkpoint (c2sp.org/tlog-checkpoint): the origin, the tree size and the
/// base64 root, one per line, signed as a note (``SignedNote``).
public struct TreeCheckpoint: Sendable, Hashable {
    /// Who issued it: a schema-less URL such as `audit.example.com/log`.
    public var origin: String
    /// The number of leaves.
    public var size: Int
    /// The 32-byte root hash.
    public var root: [UInt8]

    public init(origin: String, size: Int, root: [UInt8]) {
        self.origin = origin
        self.size = size
        self.root = root
    }

    /// The note text: three lines, each ending in a newline.
    public var text: String { "\(origin)\n\(size)\n\(Data(root).base64EncodedString())\n" }

    /// Reads a checkpoint from the text of a signed note (extension lines are allowed and ignored).
    /// - Throws: ``SignedNoteError`` naming the line that is wrong.
    public init(text: String) throws(SignedNoteError) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        guard lines.count >= 3 else {
            throw SignedNoteError("a checkpoint has at least three lines: origin, size, root")
        }
        guard !lines[0].isEmpty else { throw SignedNoteError("line 1 of the checkpoint (the origin) is empty") }
        let size = lines[1]
        guard let value = Int(size), value >= 0, String(value) == size else {
            throw SignedNoteError("line 2 of the checkpoint ('\(size)') is not a tree size")
        }
        guard let root = Data(base64Encoded: String(lines[2])).map(Array.init), root.count == 32 else {
            throw SignedNoteError("line 3 of the checkpoint is not a base64 SHA-256 root hash")
        }
        self.init(origin: String(lines[0]), size: value, root: root)
    }
}

/// A checkpoint as it is kept and mailed: the signed note and what its text says.
public struct SignedCheckpoint: Sendable, Hashable {
    public let checkpoint: TreeCheckpoint
    public let note: SignedNote
    /// The note's full text, as signed (what is written to a file).
    public let text: String

    /// Reads a signed checkpoint (its signatures are not checked: see ``verify(by:)``).
    /// - Throws: ``SignedNoteError`` naming what is wrong.
    public init(_ text: String) throws(SignedNoteError) {
        note = try SignedNote(text)
        checkpoint = try TreeCheckpoint(text: note.text)
        self.text = text
    }

    /// Checks the log's signature.
    public func verify(by key: NoteVerifierKey) throws(SignedNoteError) { try note.verify(by: key) }
}
