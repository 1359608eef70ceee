import Foundation

/// A C2SP signed note (c2sp.org/signed-note): a text ending in a newline, a blank line, and
/// signature lines `— <key name> base64(key ID || signature)`.
public struct SignedNote: Sendable, Hashable {
    /// One signature line.
    public struct Signature: Sendable, Hashable {
        public var keyName: String
        public var keyID: UInt32
        public var signature: [UInt8]
    }

    /// The most bytes a note may hold (a checkpoint with many cosignatures is far smaller).
    public static let maximumBytes = 1 << 16

    /// The signed text, with its final newline.
    public let text: String
    /// The signature lines, in order.
    public let signatures: [Signature]

    /// Reads a signed note.
    /// - Throws: ``SignedNoteError`` naming the line that is wrong.
    public init(_ note: String) throws(SignedNoteError) {
        guard note.utf8.count <= Self.maximumBytes else {
            throw SignedNoteError("the note is larger than \(Self.maximumBytes) bytes")
        }
        guard note.hasSuffix("\n") else { throw SignedNoteError("the note does not end in a newline") }
        guard let split = note.range(of: "\n\n", options: .backwards) else {
            throw SignedNoteError("the note has no blank line before its signatures")
        }
        let text = String(note[..<split.lowerBound]) + "\n"
        try Self.checkText(text)
        var signatures: [Signature] = []
        let lines = note[split.upperBound...].split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        for (offset, line) in lines.enumerated() {
            let number = text.split(separator: "\n", omittingEmptySubsequences: false).count + 1 + offset
            guard line.hasPrefix("\u{2014} ") else {
                throw SignedNoteError("line \(number) of the note is not a signature line ('— name signature')")
            }
            let fields = line.dropFirst(2).split(separator: " ", omittingEmptySubsequences: false)
            guard fields.count == 2, NoteVerifierKey.isValidName(String(fields[0])),
                let bytes = Data(base64Encoded: String(fields[1])).map(Array.init), bytes.count > 4
            else {
                throw SignedNoteError("line \(number) of the note is not '— <key name> <base64 signature>'")
            }
            signatures.append(
                Signature(
                    keyName: String(fields[0]), keyID: bytes.prefix(4).reduce(0) { $0 << 8 | UInt32($1) },
                    signature: Array(bytes.dropFirst(4))))
        }
        guard !signatures.isEmpty else { throw SignedNoteError("the note has no signature lines") }
        self.text = text
        self.signatures = signatures
    }

    /// Checks the signatures by `key`: at least one line is by it, and every line by it verifies.
    /// - Throws: ``SignedNoteError`` saying whether the key did not sign it or a signature is wrong.
    public func verify(by key: NoteVerifierKey) throws(SignedNoteError) {
        let mine = signatures.filter { $0.keyName == key.name && $0.keyID == key.keyID }
        guard !mine.isEmpty else {
            throw SignedNoteError("the note is not signed by the key \(key.name)+\(NoteVerifierKey.hex(key.keyID))")
        }
        let bytes = Array(text.utf8)
        if mine.contains(where: { !key.isValidSignature($0.signature, for: bytes) }) {
            throw SignedNoteError("the signature by \(key.name) does not verify: the note's text was changed")
        }
    }

    /// Checks that `text` can be a note's text: ends in a newline, no other control characters.
    static func checkText(_ text: String) throws(SignedNoteError) {
        guard text.hasSuffix("\n") else { throw SignedNoteError("a note's text ends in a newline") }
        guard !text.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" }) else {
            throw SignedNoteError("a note's text holds a control character other than newline")
        }
    }
}
