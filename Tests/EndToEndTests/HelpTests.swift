import Foundation
import Testing

/// Every command's `--help`, found by walking the SUBCOMMANDS sections, has an `Example:`.
@Suite("help and completions")
struct HelpTests {
    /// The subcommand names listed in a `--help` text.
    static func subcommands(in help: String) -> [String] {
        guard let start = help.range(of: "SUBCOMMANDS:\n") else { return [] }
        return help[start.upperBound...].split(separator: "\n").compactMap { line in
            // Names are indented by two spaces; wrapped abstracts are indented further.
            guard line.hasPrefix("  "), !line.hasPrefix("   "), !line.contains("See '") else { return nil }
            return line.split(separator: " ").first.map(String.init)
        }
    }

    @Test("every subcommand's --help has an Example:")
    func everyHelpHasAnExample() throws {
        var pending: [[String]] = [[]]
        var seen = 0
        while let command = pending.popLast() {
            let help = try ItemAuditBinary.run(command + ["--help"])
            #expect(help.status == 0, "\(command)")
            #expect(
                help.stdout.contains("Example:"), "itemaudit \(command.joined(separator: " ")) --help has no Example:")
            seen += 1
            pending += Self.subcommands(in: help.stdout).filter { $0 != "help" }.map { command + [$0] }
        }
        #expect(seen >= 25, "walked only \(seen) commands")
    }

    @Test("bash, zsh and fish completion scripts")
    func completions() throws {
        for shell in ["bash", "zsh", "fish"] {
            let script = try ItemAuditBinary.run(["--generate-completion-script", shell])
            #expect(script.status == 0, "\(shell): \(script.stderr)")
            #expect(script.stdout.contains("itemaudit") && script.stdout.contains("coverage"), "\(shell)")
        }
    }
}
