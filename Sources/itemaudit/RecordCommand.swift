import ArgumentParser
import AuditService
import Foundation
import Logging

/// `itemaudit record FILE.jsonl|-`: applies command lines through the service's command path.
struct RecordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Apply inspection commands (one JSON object per line) through the command path.",
        discussion: """
            Each line is one command: {"commandID": …, "actor": …, "type": "StartCollection", …} \
            (checked against its schema in Schemas/commands/; an occurredAt that is no real date is \
            invalid too, and one in the future, or before its batch's allocation or its task's \
            previous event, is refused). Prints one outcome line per input line: accepted \
            (stream, version, positions), duplicate (a command id seen before: the original result, \
            nothing appended) or refused (the command, the state and why). Refused or invalid lines \
            do not stop the rest; the exit code is 1 if any line was refused or invalid.

            Example:
              itemaudit record commands.jsonl --data ./itemaudit-data
              echo '{"commandID":"c1","actor":"admin","type":"RegisterLocation","locationID":"S1","name":"Store","kind":0}' | itemaudit record -
            """
    )

    @Argument(help: ArgumentHelp("A JSON-lines file of commands, or - for standard input.", valueName: "file"))
    var file: String

    /// Warnings and errors only: the command's own output is the report.
    static var logger: Logger {
        var logger = Logger(label: "itemaudit.record")
        logger.logLevel = .warning
        return logger
    }

    @OptionGroup var data: DataDirectoryOption
    @OptionGroup var output: FormatOption
    @OptionGroup var validity: BatchValidityOption
    @Flag(help: "Print only the lines that were refused or invalid.") var quiet = false

    func run() async throws {
        let input: FileHandle
        if file == "-" {
            input = FileHandle.standardInput
        } else {
            try ServiceAccess.requireTextFile(file, kind: "a JSON-lines file of commands")
            guard let handle = FileHandle(forReadingAtPath: file) else {
                throw CLIFailure.badInput("cannot read \(file) (check the path and its permissions)")
            }
            input = handle
        }
        var reader = LineReader(input)
        // The first non-empty line must look like a command before anything is opened for writing:
        // a CSV or other file given by mistake is refused as a whole, with nothing written.
        var pending: [(number: Int, text: String)] = []
        var number = 0
        do {
            while let line = try reader.next() {
                number += 1
                pending.append((number, line))
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty { continue }
                guard trimmed.hasPrefix("{") else {
                    throw CLIFailure.badInput(
                        "\(file == "-" ? "standard input" : file) line \(number) is not a JSON object "
                            + "(record reads JSON Lines, one command {…} per line; see Schemas/commands/; nothing was written)"
                    )
                }
                break
            }
        } catch let failure as CLIFailure {
            throw failure
        } catch {
            throw CLIFailure.badInput("cannot read \(file): \(error.localizedDescription) (check the path)")
        }
        let service = try await ServiceAccess.open(data, configuration: try validity.configuration(), logger: Self.logger)
        if output.format == .csv { print(output.spreadsheet.byteOrderMark + TextTable.csvHeader) }
        var failures = 0
        var chunk = pending
        func flush() async throws {
            let results = try await service.record(lines: chunk)
            chunk.removeAll(keepingCapacity: true)
            for result in results {
                if result.isFailure { failures += 1 }
                if !quiet || result.isFailure { print(Self.render(result, output)) }
            }
            // An outcome line on stdout is an acknowledgement: out as soon as the append is durable.
            fflush(nil)
        }
        do {
            while let line = try reader.next() {
                number += 1
                chunk.append((number, line))
                if chunk.count >= 512 { try await flush() }
            }
            try await flush()
            try await service.close()
        } catch let error as AuditServiceError {
            try? await service.close()
            throw CLIFailure.badInput("\(error.message) (the lines printed so far were applied)")
        } catch {
            try? await service.close()
            throw CLIFailure.badInput(
                "cannot read \(file): \(error.localizedDescription) (the lines printed so far were applied)")
        }
        if failures > 0 {
            throw CLIFailure.problemsFound(
                "\(failures) of \(number) lines were refused or invalid (see the outcome lines)")
        }
    }

    /// One outcome line: the table's sentence, a CSV row, or one JSON object (JSON Lines, so each
    /// outcome is out as soon as it is durable; `Schemas/output/record.json` describes a line).
    /// CSV headers are JSON keys; `message` says why a line was refused or invalid.
    static func render(_ line: RecordedLine, _ output: FormatOption) -> String {
        let outcome = line.outcome
        let status = line.parseError == nil ? (outcome?.status.rawValue ?? "") : "invalid"
        let message = line.parseError ?? outcome?.refusal?.description
        switch output.format {
        case .table:
            return line.summary
        case .csv:
            return [
                String(line.line), status, outcome?.commandID ?? "", outcome?.commandType ?? "", outcome?.stream ?? "",
                outcome?.streamVersion.map(String.init) ?? "", outcome?.positions.map { String($0.lowerBound) } ?? "",
                outcome?.positions.map { String($0.upperBound) } ?? "", outcome?.createdID ?? "", message ?? "",
            ].map(output.spreadsheet.csvField).joined(separator: ",")
        case .json:
            var object: [String: Any] = ["line": line.line, "status": status]
            if let outcome {
                object["commandID"] = outcome.commandID
                object["type"] = outcome.commandType
                if let stream = outcome.stream { object["stream"] = stream }
                if let version = outcome.streamVersion { object["streamVersion"] = version }
                if let positions = outcome.positions {
                    object["firstPosition"] = positions.lowerBound
                    object["lastPosition"] = positions.upperBound
                }
                if !outcome.eventTypes.isEmpty { object["events"] = outcome.eventTypes }
                if let created = outcome.createdID { object["createdID"] = created }
                if let refusal = outcome.refusal {
                    object["refusal"] = [
                        "code": refusal.code.rawValue, "command": refusal.command, "state": refusal.state,
                        "reason": refusal.reason,
                    ]
                }
            }
            if let message { object["message"] = message }
            let data =
                (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
                ?? Data("{}".utf8)
            return String(decoding: data, as: UTF8.self)
        }
    }
}

extension TextTable {
    /// The header of `record --format csv`.
    static let csvHeader =
        "line,status,commandID,type,stream,streamVersion,firstPosition,lastPosition,createdID,message"
}
