/// Why a Merkle proof could not be made or did not verify.
public struct MerkleProofError: Error, Equatable, CustomStringConvertible {
    /// What kind of failure.
    public enum Code: String, Sendable {
        case sizeBeyondTree, indexBeyondSize, wrongProofLength, rootMismatch
    }

    public let code: Code
    /// What went wrong, in words for the person reading the output.
    public let message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
