import Foundation
import Proofs
import Testing

/// C2SP signed notes and checkpoints: the specification's example verifies, ours round-trip,
/// and a changed text or another key is refused.
@Suite struct SignedNoteTests {
    /// c2sp.org/signed-note, "Example".
    static let exampleKey = "example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k"
    static let exampleNote = """
        This is an example message.

        — example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=

        """

    @Test func theSpecificationsExampleVerifies() throws {
        let key = try NoteVerifierKey(text: Self.exampleKey)
        #expect(key.name == "example.com/foo")
        #expect(key.keyID == 0x530d_903a)
        #expect(key.description == Self.exampleKey)
        let note = try SignedNote(Self.exampleNote)
        #expect(note.text == "This is an example message.\n")
        try note.verify(by: key)
        let changed = try SignedNote(
            Self.exampleNote.replacingOccurrences(of: "example message", with: "exemplary message"))
        #expect(throws: SignedNoteError.self) { try changed.verify(by: key) }
    }

    @Test func aVerifierKeyWithAWrongIDIsRefused() {
        #expect(throws: SignedNoteError.self) {
            try NoteVerifierKey(text: "example.com/foo+530d903b+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k")
        }
        #expect(throws: SignedNoteError.self) { try NoteVerifierKey(text: "example.com/foo+530d903a") }
    }

    @Test func aSignedCheckpointRoundTripsAndOnlyItsKeyVerifiesIt() throws {
        let signer = try NoteSigner.generate(name: "audit.example.com/log")
        let reread = try NoteSigner(text: signer.text)
        #expect(reread.verifier == signer.verifier)
        let checkpoint = TreeCheckpoint(origin: "audit.example.com/log", size: 8, root: MerkleHash.emptyRoot)
        let note = try signer.sign(checkpoint.text)
        let parsed = try SignedCheckpoint(note)
        #expect(parsed.checkpoint == checkpoint)
        try parsed.verify(by: signer.verifier)
        try parsed.verify(by: NoteVerifierKey(text: signer.verifier.description))
        let other = try NoteSigner.generate(name: "audit.example.com/log")
        #expect(throws: SignedNoteError.self) { try parsed.verify(by: other.verifier) }
        let forged = try SignedCheckpoint(note.replacingOccurrences(of: "\n8\n", with: "\n9\n"))
        #expect(forged.checkpoint.size == 9)
        #expect(throws: SignedNoteError.self) { try forged.verify(by: signer.verifier) }
    }

    @Test func malformedCheckpointsNameTheLine() throws {
        let signer = try NoteSigner.generate(name: "o")
        let bad = try signer.sign("o\nten\nAAAA\n")
        #expect(throws: SignedNoteError("line 2 of the checkpoint ('ten') is not a tree size")) {
            try SignedCheckpoint(bad)
        }
        #expect(throws: SignedNoteError.self) { try SignedNote("no signatures\n") }
    }

    @Test func proofTextRoundTrips() throws {
        let signer = try NoteSigner.generate(name: "o")
        let checkpoint = try signer.sign(TreeCheckpoint(origin: "o", size: 3, root: MerkleHash.emptyRoot).text)
        let hashes = [MerkleHash.leaf([1]), MerkleHash.leaf([2])]
        let inclusion = try ProofText.parse(
            ProofText.inclusion(leafData: [9, 9], index: 2, proof: hashes, checkpoint: checkpoint))
        #expect(inclusion.extra == [9, 9] && inclusion.number == 2 && inclusion.hashes == hashes)
        #expect(inclusion.checkpoint.text == checkpoint)
        let consistency = try ProofText.parse(ProofText.consistency(oldSize: 1, proof: hashes, checkpoint: checkpoint))
        #expect(consistency.extra == nil && consistency.number == 1 && consistency.hashes == hashes)
    }
}
