import ArgumentParser
import AuditService
import Foundation

extension ItemAuditCommand {
    /// Runs the command line with the exit codes every subcommand shares:
    /// 0 success, 1 a check found problems, 2 bad usage or unreadable input.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let failure as CLIFailure {
            fail(failure.message, exitCode: failure.exitCode)
        } catch let error where AuditServiceError.describing(error) != nil {
            // A damaged or unreadable log or projection database is unreadable input; the
            // message names the file and offset.
            fail(AuditServiceError.describing(error)?.message ?? "\(error)", exitCode: 2)
        } catch {
            let code = exitCode(for: error)
            if code == .success || error is ExitCode {
                exit(withError: error)
            }
            guard code == .validationFailure else {
                fail("\(error) (run the command again; if it fails again, report it)", exitCode: code.rawValue)
            }
            // Parsing and validation errors are bad usage: ArgumentParser's 64 becomes our 2, on one line.
            let message = self.message(for: error).split(separator: "\n").first.map(String.init) ?? "bad usage"
            let help =
                (["itemaudit"] + commandPath(CommandLine.arguments.dropFirst())).joined(separator: " ") + " --help"
            fail(message.hasSuffix(")") ? message : "\(message) (see \(help))", exitCode: 2)
        }
    }

    /// The subcommand names at the start of `arguments` (e.g. `rules show`), for a pointer to their help.
    static func commandPath(_ arguments: ArraySlice<String>) -> [String] {
        var path: [String] = []
        var commands: [ParsableCommand.Type] = configuration.subcommands
        for argument in arguments {
            guard let command = commands.first(where: { $0._commandName == argument }) else { break }
            path.append(argument)
            commands = command.configuration.subcommands
        }
        return path
    }

    /// Prints `error: message` on stderr and exits with `exitCode`.
    static func fail(_ message: String, exitCode: Int32) -> Never {
        FileHandle.standardError.write(Data("error: \(message)\n".utf8))
        Foundation.exit(exitCode)
    }
}

/// An error at the CLI edge: one line on stderr, `error: what went wrong (what to do)`, and an exit code.
struct CLIFailure: Error {
    var message: String
    var exitCode: Int32

    /// Bad usage or unreadable input: exit code 2.
    static func badInput(_ message: String) -> CLIFailure { CLIFailure(message: message, exitCode: 2) }
    /// A check or verification found problems: exit code 1.
    static func problemsFound(_ message: String) -> CLIFailure { CLIFailure(message: message, exitCode: 1) }
}
