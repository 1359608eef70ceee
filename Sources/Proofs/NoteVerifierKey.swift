import Crypto
import Foundation

/// An Ed25519 verifier key of a C2SP signed note (c2sp.org/signed-note), written
/// `<name>+<hex key ID>+<base64(0x01 || public key)>`.
public struct NoteVerifierKey: Sendable, Hashable, CustomStringConvertible {
    /// The signature type byte of Ed25519 in signed notes.
    public static let ed25519Type: UInt8 = 0x01

    /// The key name (no spaces, no `+`).
    public let name: String
    /// The 32-byte Ed25519 public key.
    public let publicKey: [UInt8]
    /// SHA-256(name || 0x0A || 0x01 || public key)[:4], big-endian.
    public let keyID: UInt32

    /// The verifier key named `name` for the Ed25519 public key `publicKey`.
    /// - Throws: ``SignedNoteError`` when the name is not a valid key name or the key is not 32 bytes.
    public init(name: String, publicKey: [UInt8]) throws(SignedNoteError) {
        guard Self.isValidName(name) else {
            throw SignedNoteError("the key name '\(name)' is empty or holds a space or a '+'")
        }
        guard publicKey.count == 32 else {
            throw SignedNoteError("an Ed25519 public key is 32 bytes, not \(publicKey.count)")
        }
        self.name = name
        self.publicKey = publicKey
        self.keyID = Self.keyID(name: name, publicKey: publicKey)
    }

    /// Reads a verifier key in its text form.
    /// - Throws: ``SignedNoteError`` naming the part that is wrong.
    public init(text: String) throws(SignedNoteError) {
        let parts = text.trimmingCharacters(in: .whitespacesAndNewlines).split(
            separator: "+", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw SignedNoteError("a verifier key is name+keyID+key (three parts separated by '+')")
        }
        guard parts[1].count == 8, let id = UInt32(parts[1], radix: 16) else {
            throw SignedNoteError("the key ID '\(parts[1])' of a verifier key is not 8 hex digits")
        }
        guard let material = Data(base64Encoded: String(parts[2])).map(Array.init), material.count == 33,
            material[0] == Self.ed25519Type
        else {
            throw SignedNoteError("the key of a verifier key is not base64 of 0x01 and a 32-byte Ed25519 public key")
        }
        try self.init(name: String(parts[0]), publicKey: Array(material[1...]))
        guard keyID == id else {
            throw SignedNoteError(
                "the key ID \(parts[1]) does not match the name and key (expected \(Self.hex(keyID)))")
        }
    }

    /// The text form: `name+keyID+base64(0x01 || key)`.
    public var description: String {
        "\(name)+\(Self.hex(keyID))+\(Data([Self.ed25519Type] + publicKey).base64EncodedString())"
    }

    /// Checks an Ed25519 signature of `message` by this key.
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: publicKey) else { return false }
        return key.isValidSignature(signature, for: message)
    }

    /// SHA-256(name || 0x0A || 0x01 || public key)[:4] as a big-endian number.
    static func keyID(name: String, publicKey: [UInt8]) -> UInt32 {
        var hasher = SHA256()
        hasher.update(data: Array(name.utf8) + [0x0A, ed25519Type] + publicKey)
        return Array(hasher.finalize()).prefix(4).reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Whether `name` may name a key: non-empty, no Unicode space, no `+`.
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && !name.unicodeScalars.contains { $0 == "+" || $0.properties.isWhitespace || $0.value < 0x20 }
    }

    static func hex(_ id: UInt32) -> String {
        let digits = String(id, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}

/// Why a signed note, key or checkpoint could not be read, made or verified.
public struct SignedNoteError: Error, Equatable, CustomStringConvertible {
    /// What is wrong, for the person reading the output.
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
