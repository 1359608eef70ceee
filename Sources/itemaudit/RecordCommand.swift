import ArgumentParser
import AuditService
import Foundation
import Inspection
import Logging

/// `itemaudit record FILE.jsonl|-`: applies command lines through the service's command path.
struct RecordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Apply inspection commands (one JSON object per line) through the command path.",
        discussion: """
            Each line is one command: {"commandID": …, "actor": …, "type": "StartCollection", …}
            (schemas in Schemas/commands/). Prints one outcome line per input line: accepted
            (stream, version, positions), duplicate (a command id seen before: the original result,
            nothing appended) or refused (the command, the state and why). Refused or invalid lines
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

    func run() async throws {
        let input: FileHandle
        if file == "-" {
            input = FileHandle.standardInput
        } else {
            guard let handle = FileHandle(forReadingAtPath: file) else {
                throw CLIFailure.badInput("cannot read \(file) (check the path)")
            }
            input = handle
        }
        let service: AuditService
        do {
            service = try await AuditService.open(dataDirectory: data.url, logger: Self.logger)
        } catch {
            throw CLIFailure.badInput("\(error) (check --data)")
        }
        if output.format == .csv { print(TextTable.csvHeader) }
        var failures = 0
        var number = 0
        var chunk: [(number: Int, text: String)] = []
        func flush() async throws {
            let results = try await service.record(lines: chunk)
            chunk.removeAll(keepingCapacity: true)
            for result in results {
                if result.isFailure { failures += 1 }
                print(Self.render(result, output.format))
            }
        }
        do {
            var reader = LineReader(input)
            while let line = reader.next() {
                number += 1
                chunk.append((number, line))
                if chunk.count >= 512 { try await flush() }
            }
            try await flush()
            try await service.close()
        } catch let error as AuditServiceError {
            throw CLIFailure.badInput("\(error) (the lines printed so far were applied)")
        }
        if failures > 0 {
            throw CLIFailure.problemsFound(
                "\(failures) of \(number) lines were refused or invalid (see the outcome lines)")
        }
    }

    static func render(_ line: RecordedLine, _ format: OutputFormat) -> String {
        let outcome = line.outcome
        let status = line.parseError == nil ? (outcome?.status.rawValue ?? "") : "invalid"
        switch format {
        case .table:
            return line.summary
        case .csv:
            return [
                String(line.line), status, outcome?.commandID ?? "", outcome?.commandType ?? "", outcome?.stream ?? "",
                outcome?.streamVersion.map(String.init) ?? "", outcome?.positions.map { String($0.lowerBound) } ?? "",
                outcome?.positions.map { String($0.upperBound) } ?? "",
                line.parseError ?? outcome?.refusal?.description ?? "",
            ].map(TextTable.csvField).joined(separator: ",")
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
                if let refusal = outcome.refusal {
                    object["refusal"] = [
                        "code": refusal.code.rawValue, "command": refusal.command, "state": refusal.state,
                        "reason": refusal.reason,
                    ]
                }
            }
            if let parseError = line.parseError { object["error"] = parseError }
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
            return String(decoding: data, as: UTF8.self)
        }
    }
}

extension TextTable {
    /// The header of `record --format csv`.
    static let csvHeader = "line,status,commandID,type,stream,streamVersion,firstPosition,lastPosition,message"
}
