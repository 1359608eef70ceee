import Crypto
import Foundation

/// An Ed25519 signing key of signed notes, kept in the text form Go's `golang.org/x/mod/sumdb/note`
/// uses: `PRIVATE+KEY+<name>+<hex key ID>+<base64(0x01 || 32-byte seed)>`.
public struct NoteSigner: Sendable {
    /// The key's verifier key (name, ID and public key).
    public let verifier: NoteVerifierKey
    /// The 32-byte Ed25519 seed (kept as bytes: the key type is not Sendable).
    private let seed: [UInt8]

    /// A new random key named `name`.
    /// - Throws: ``SignedNoteError`` when `name` is not a valid key name.
    public static func generate(name: String) throws(SignedNoteError) -> NoteSigner {
        try NoteSigner(name: name, key: Curve25519.Signing.PrivateKey())
    }

    private init(name: String, key: Curve25519.Signing.PrivateKey) throws(SignedNoteError) {
        self.seed = Array(key.rawRepresentation)
        self.verifier = try NoteVerifierKey(name: name, publicKey: Array(key.publicKey.rawRepresentation))
    }

    /// Reads a signing key in its text form.
    /// - Throws: ``SignedNoteError`` naming what is wrong (never the key's bytes).
    public init(text: String) throws(SignedNoteError) {
        let parts = text.trimmingCharacters(in: .whitespacesAndNewlines).split(
            separator: "+", maxSplits: 4, omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0] == "PRIVATE", parts[1] == "KEY" else {
            throw SignedNoteError("a signing key is PRIVATE+KEY+name+keyID+key (five parts separated by '+')")
        }
        guard let material = Data(base64Encoded: String(parts[4])).map(Array.init), material.count == 33,
            material[0] == NoteVerifierKey.ed25519Type,
            let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: material[1...])
        else {
            throw SignedNoteError("the key of a signing key is not base64 of 0x01 and a 32-byte Ed25519 seed")
        }
        try self.init(name: String(parts[2]), key: key)
        guard NoteVerifierKey.hex(verifier.keyID) == parts[3] else {
            throw SignedNoteError("the key ID \(parts[3]) of the signing key does not match its name and key")
        }
    }

    /// The text form (secret: write it only to a file only its owner reads).
    public var text: String {
        let material = Data([NoteVerifierKey.ed25519Type] + seed).base64EncodedString()
        return "PRIVATE+KEY+\(verifier.name)+\(NoteVerifierKey.hex(verifier.keyID))+\(material)"
    }

    /// Signs `text` (which must end in a newline) as a signed note with one signature line.
    /// - Throws: ``SignedNoteError`` when `text` cannot be a note's text.
    public func sign(_ text: String) throws(SignedNoteError) -> String {
        try SignedNote.checkText(text)
        let signature: [UInt8]
        do {
            let key = try Curve25519.Signing.PrivateKey(rawRepresentation: seed)
            signature = Array(try key.signature(for: Array(text.utf8)))
        } catch {
            throw SignedNoteError("the signature could not be made: \(error)")
        }
        var id = verifier.keyID.bigEndian
        let idBytes = withUnsafeBytes(of: &id) { Array($0) }
        return text + "\n" + "\u{2014} \(verifier.name) \(Data(idBytes + signature).base64EncodedString())\n"
    }
}
