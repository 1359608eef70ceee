import ArgumentParser
import AuditService
import Foundation

/// `itemaudit proof`: the log's verifier key, signed checkpoints and Merkle proofs (#44).
struct ProofCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "proof",
        abstract: "The log's key, signed checkpoints and Merkle proofs an auditor keeps and checks.",
        discussion: """
            The log is an RFC 6962 Merkle tree over its events (docs/architecture.md, "The log's \
            Merkle tree"). `proof checkpoint` signs its size and root with the log's Ed25519 key \
            (C2SP tlog-checkpoint) and keeps the checkpoint in <data>/checkpoints/; an auditor keeps \
            a copy and later runs `itemaudit verify --checkpoint FILE`.

            Example:
              itemaudit proof checkpoint --data ./itemaudit-data --log-origin audit.example.com/log
              itemaudit proof key --data ./itemaudit-data
            """,
        subcommands: [
            ProofKeyCommand.self, ProofCheckpointCommand.self, ProofInclusionCommand.self,
            ProofConsistencyCommand.self,
        ]
    )
}

/// `--log-key FILE`: the log key file, shared by the commands that sign or name it.
struct LogKeyOption: ParsableArguments {
    @Option(
        name: .customLong("log-key"),
        help: ArgumentHelp(
            "The log's Ed25519 signing key file (default: <data>/keys/log.key; made by the first checkpoint).",
            valueName: "file"))
    var file: String?
}

struct ProofKeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key",
        abstract: "Print the log's verifier key (C2SP signed-note form: name+keyID+base64).",
        discussion: """
            Auditors check checkpoints with this key (`itemaudit verify --checkpoint FILE \
            --verifier-key KEY`). Reads the key file only: makes no key.

            Example:
              itemaudit proof key --data ./itemaudit-data
            """
    )

    @OptionGroup var data: DataDirectoryOption
    @OptionGroup var key: LogKeyOption

    func run() throws {
        print(try AuditProofs.verifierKey(DataDirectory(data.url), keyFile: key.file))
    }
}

struct ProofCheckpointCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checkpoint",
        abstract: "Sign a checkpoint of the log as it is now, keep it in <data>/checkpoints/ and print it.",
        discussion: """
            Prints the signed note (C2SP tlog-checkpoint: origin, size, base64 root, a blank line, \
            the signature line). The first checkpoint makes the log key, named by --log-origin or \
            --public-url; later ones reuse it. Refuses to sign when the log no longer holds the tree \
            of the latest kept checkpoint.

            Example:
              itemaudit proof checkpoint --data ./itemaudit-data --log-origin audit.example.com/log > kept.checkpoint
            """
    )

    @OptionGroup var data: DataDirectoryOption
    @OptionGroup var key: LogKeyOption
    @Option(
        name: .customLong("log-origin"),
        help: ArgumentHelp(
            "The log's name, the checkpoint's first line (a schema-less URL such as audit.example.com/log).",
            valueName: "origin"))
    var origin: String?
    @Option(
        name: .customLong("public-url"),
        help: ArgumentHelp(
            "The URL the server is reached by: the origin when --log-origin is not given.", valueName: "url"))
    var publicURL: String?

    func run() throws {
        let made = try AuditProofs.makeCheckpoint(
            DataDirectory(data.url), location: data.location,
            identity: .init(keyFile: key.file, origin: origin, publicURL: publicURL))
        print(made.text, terminator: "")
        if made.keyCreated == true {
            FileHandle.standardError.write(
                Data(
                    "note: made the log key (keep it safe; see docs/audit.md); its verifier key: \(try AuditProofs.verifierKey(DataDirectory(data.url), keyFile: key.file))\n"
                        .utf8))
        }
    }
}

struct ProofInclusionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inclusion",
        abstract: "Print the proof that an event is in the tree of the latest kept checkpoint (C2SP tlog-proof).",
        discussion: """
            The `extra` line is the event's 56-byte leaf data (position, stream version, recorded-at, \
            content digest); the index is its position minus 1; the hashes lead from its leaf to the \
            root of the checkpoint printed after the blank line.

            Example:
              itemaudit proof inclusion --data ./itemaudit-data --position 42
            """
    )

    @OptionGroup var data: DataDirectoryOption
    @Option(help: ArgumentHelp("The event's position (from 1).", valueName: "n")) var position: UInt64

    func run() throws {
        print(
            try AuditProofs.inclusionProof(DataDirectory(data.url), location: data.location, position: position),
            terminator: "")
    }
}

struct ProofConsistencyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "consistency",
        abstract: "Print the proof that a kept checkpoint's tree is a prefix of the latest kept checkpoint's.",
        discussion: """
            Example:
              itemaudit proof consistency --data ./itemaudit-data --from kept.checkpoint
            """
    )

    @OptionGroup var data: DataDirectoryOption
    @Option(help: ArgumentHelp("The earlier checkpoint (a signed note).", valueName: "file")) var from: String

    func run() throws {
        let text = try readCheckpointFile(from)
        print(
            try AuditProofs.consistencyProof(DataDirectory(data.url), location: data.location, from: text, file: from),
            terminator: "")
    }
}

/// The text of a checkpoint file, refusing what cannot be one (missing, larger than a note may be).
func readCheckpointFile(_ path: String) throws -> String {
    guard let handle = FileHandle(forReadingAtPath: path) else {
        throw CLIFailure.badInput("cannot read the checkpoint \(path) (check the path)")
    }
    defer { try? handle.close() }
    let data = (try? handle.read(upToCount: 1 << 16 + 1)) ?? Data()
    guard data.count <= 1 << 16 else {
        throw CLIFailure.badInput("\(path) is larger than a checkpoint may be (64 KiB)")
    }
    return String(decoding: data, as: UTF8.self)
}
