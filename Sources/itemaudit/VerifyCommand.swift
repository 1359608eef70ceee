import ArgumentParser
import AuditService
import Foundation

/// `itemaudit verify`: checks every CRC and the whole hash chain of the log.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check every frame's CRC32C and the whole SHA-256 hash chain of the event log.",
        discussion: """
            Prints the event count, the last position and the head hash (write it down: a later \
            verify that prints another head for the same position means the log was altered). \
            On damage it names the first bad frame (segment file, byte offset, positions) and exits 1. \
            The log lives in <data>/log/ (or in PostgreSQL with --store URL, where every row's \
            chain hash is recomputed and a changed or deleted row is named by position); a writer \
            may keep running while this reads.

            Example:
              itemaudit verify --data ./itemaudit-data --format json
              itemaudit verify --data ./itemaudit-data --checkpoint kept.checkpoint

            With a checkpoint kept in <data>/checkpoints/ (`itemaudit proof checkpoint`), prints the \
            latest one too. --checkpoint FILE checks that the log still holds the tree of a \
            checkpoint an auditor kept: its signature by the log key (--verifier-key, else the key \
            file), a consistency proof from it to the log now, and the checkpoints kept with the \
            log; on failure it names what differs (the tree of that size, a fork, the positions \
            between the last matching kept checkpoint and it) and exits 1.
            """
    )

    @OptionGroup var data: DataDirectoryOption
    @OptionGroup var output: FormatOption
    @Option(
        help: ArgumentHelp(
            "A signed checkpoint an auditor kept: check that the log still holds its tree.", valueName: "file"))
    var checkpoint: String?
    @Option(
        name: .customLong("verifier-key"),
        help: ArgumentHelp(
            "With --checkpoint: the log's verifier key as `itemaudit proof key` printed it (default: the log key file's).",
            valueName: "key"))
    var verifierKey: String?
    @OptionGroup var logKey: LogKeyOption

    func run() throws {
        let location = data.location
        let report: VerificationReport
        do {
            report = try AuditQueries.verify(DataDirectory(data.url), location: location)
        } catch let error as AuditServiceError where location.isPostgres {
            throw CLIFailure.badInput("cannot verify the log at \(location): \(error.message)")
        }
        let directory = DataDirectory(data.url)
        let latest = AuditProofs.latestCheckpoint(directory)
        var check: AuditProofs.CheckpointVerification?
        if let checkpoint {
            check = try AuditProofs.verifyCheckpoint(
                directory, location: location, text: try readCheckpointFile(checkpoint), file: checkpoint,
                verifierKey: verifierKey, keyFile: logKey.file)
        }
        if output.format == .json {
            var json = JSONReport(report)
            json.checkpoint = latest.map {
                KeptCheckpoint(origin: $0.origin, size: $0.size, root: $0.root, file: $0.file)
            }
            json.checkpointCheck = check
            print(JSONOutput.text(json, fallback: "{}"), terminator: "")
        } else {
            var table = Self.table(report)
            if let latest {
                table.append(["checkpoint", "\(latest.origin), size \(latest.size), root \(latest.root)"])
                table.append(["checkpoint file", latest.file])
            }
            if let check {
                table.append(["checked checkpoint", "\(check.checkpointOrigin), size \(check.checkpointSize)"])
                table.append([
                    "consistency", check.isConsistent ? "the log holds its tree and only grew since" : "FAILED",
                ])
                if let hashes = check.proofHashes { table.append(["proof hashes", String(hashes)]) }
            }
            print(output.render(table), terminator: "")
        }
        if let torn = report.unfinishedWrite {
            FileHandle.standardError.write(
                Data(
                    "note: \(torn.segment) ends in a write a crash interrupted at offset \(torn.offset), never acknowledged (\(torn.reason)); the next writer moves it aside, nothing acknowledged is affected\n"
                        .utf8))
        }
        if let problem = report.problem, location.isPostgres {
            throw CLIFailure.problemsFound(
                "position \(problem.firstPosition.map(String.init) ?? "?") in \(problem.segment) of \(location) is bad: \(problem.reason) (restore the database from a backup or a `store copy`)"
            )
        }
        if let problem = report.problem {
            throw CLIFailure.problemsFound(
                "frame at \(problem.segment) offset \(problem.offset) is bad: \(problem.reason) (restore the log from a copy, or run `itemaudit recover` to see what cutting it would remove)"
            )
        }
        if let check, !check.isConsistent {
            throw CLIFailure.problemsFound(
                "the log does not hold the tree of \(checkpoint ?? "the checkpoint"): "
                    + check.findings.joined(separator: "; "))
        }
        if let file = report.quarantined.first(where: \.acknowledged) {
            throw CLIFailure.problemsFound(
                "acknowledged events were cut off the log and are kept in \(file.name) (keep it as evidence; the log itself is intact up to position \(report.lastPosition))"
            )
        }
    }

    /// The report as `{"status", "eventCount", …}`.
    static func json(_ report: VerificationReport) -> String {
        JSONOutput.text(JSONReport(report), fallback: "{}")
    }

    /// The report as a field/value table (also printed by `demo`).
    static func table(_ report: VerificationReport) -> TextTable {
        var table = TextTable(columns: ["field", "value"])
        table.append([
            "status", report.isIntact ? (report.hasAcknowledgedQuarantine ? "quarantined" : "intact") : "damaged",
        ])
        table.append(["events", String(report.eventCount)])
        table.append(["last position", String(report.lastPosition)])
        table.append(["head hash", report.headHash])
        if let legacy = report.formatTwoFrameHash { table.append(["format-2 frame hash", legacy]) }
        table.append(["frames", String(report.frameCount)])
        table.append(["segments", String(report.segmentCount)])
        table.append(["bytes", String(report.bytes)])
        if let problem = report.problem {
            table.append(["bad segment", problem.segment])
            table.append(["bad offset", String(problem.offset)])
            if let first = problem.firstPosition, let last = problem.lastPosition {
                table.append(["bad positions", "\(first)-\(last)"])
            }
            table.append(["problem", problem.reason])
        }
        if let torn = report.unfinishedWrite {
            table.append(["unfinished write", "\(torn.segment) offset \(torn.offset) (never acknowledged)"])
        }
        for file in report.quarantined {
            table.append([
                file.acknowledged ? "quarantined" : "torn tail kept", "\(file.name) (\(file.bytes) bytes)",
            ])
        }
        return table
    }

    /// The JSON shape: the report plus an explicit status.
    struct JSONReport: Encodable {
        var status: String
        var eventCount: UInt64
        var lastPosition: UInt64
        var headHash: String
        var formatTwoFrameHash: String?
        var frameCount: Int
        var segmentCount: Int
        var bytes: UInt64
        var problem: VerificationProblem?
        var quarantined: [QuarantinedFile]
        /// The latest checkpoint kept with the log, when there is one.
        var checkpoint: KeptCheckpoint?
        /// What `--checkpoint FILE` found.
        var checkpointCheck: AuditProofs.CheckpointVerification?

        init(_ report: VerificationReport) {
            status = report.isIntact ? (report.hasAcknowledgedQuarantine ? "quarantined" : "intact") : "damaged"
            eventCount = report.eventCount
            lastPosition = report.lastPosition
            headHash = report.headHash
            formatTwoFrameHash = report.formatTwoFrameHash
            frameCount = report.frameCount
            segmentCount = report.segmentCount
            bytes = report.bytes
            problem = report.problem
            quarantined = report.quarantined
        }
    }
}

/// The latest checkpoint kept with the log, as `verify --format json` prints it.
struct KeptCheckpoint: Encodable {
    var origin: String
    var size: Int
    var root: String
    var file: String
}
