import ArgumentParser
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
            FileHandle.standardError.write(Data("error: \(failure.message)\n".utf8))
            Foundation.exit(failure.exitCode)
        } catch {
            let code = exitCode(for: error)
            if code == .success || error is ExitCode {
                exit(withError: error)
            }
            // Parsing and validation errors are bad usage: ArgumentParser's 64 becomes our 2.
            let message = fullMessage(for: error)
            if !message.isEmpty {
                FileHandle.standardError.write(Data((message.hasSuffix("\n") ? message : message + "\n").utf8))
            }
            Foundation.exit(code == .validationFailure ? 2 : code.rawValue)
        }
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
