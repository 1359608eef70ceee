import Foundation
import Testing

/// Compares a command's transcript with a committed file under Snapshots/, exactly.
///
/// `ITEMAUDIT_RECORD_SNAPSHOTS=1 swift test --filter EndToEndTests` rewrites the files instead.
/// Transcripts hold no absolute paths (data and scratch directories become `$DATA` and `$TMP`),
/// no wall-clock times and no durations, so they match on any machine and in any checkout.
enum Snapshot {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Snapshots", isDirectory: true)

    static var recording: Bool { ProcessInfo.processInfo.environment["ITEMAUDIT_RECORD_SNAPSHOTS"] == "1" }

    /// Runs `itemaudit arguments` and checks the transcript (command, exit code, stdout, stderr) against `name`.
    @discardableResult
    static func run(
        _ arguments: [String], named name: String, replacing paths: [(URL, String)], stdin: Data? = nil,
        currentDirectory: URL? = nil, normalize: (String) -> String = { $0 },
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ItemAuditBinary.Result {
        let result = try ItemAuditBinary.run(arguments, stdin: stdin, currentDirectory: currentDirectory)
        func clean(_ text: String) -> String {
            var text = text
            // Longest first, so a path inside another is replaced by the outer placeholder.
            for (url, placeholder) in paths.sorted(by: { $0.0.path.count > $1.0.path.count }) {
                text = text.replacingOccurrences(of: url.path, with: placeholder)
            }
            return normalize(text)
        }
        let transcript = """
            $ itemaudit \(clean(arguments.joined(separator: " ")))
            exit \(result.status)
            --- stdout
            \(clean(result.stdout))
            --- stderr
            \(clean(result.stderr))
            """
        check(transcript, named: name, sourceLocation: sourceLocation)
        return result
    }

    static func check(_ text: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let file = directory.appendingPathComponent(name + ".txt")
        if recording {
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try Data(text.utf8).write(to: file)
            } catch {
                Issue.record(
                    "cannot write the snapshot \(file.lastPathComponent): \(error)", sourceLocation: sourceLocation)
            }
            return
        }
        guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
            Issue.record(
                "no snapshot \(name).txt (record it with ITEMAUDIT_RECORD_SNAPSHOTS=1)\n\(text)",
                sourceLocation: sourceLocation)
            return
        }
        guard expected != text else { return }
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let new = text.split(separator: "\n", omittingEmptySubsequences: false)
        let line = Array(zip(old, new)).firstIndex { $0 != $1 } ?? min(old.count, new.count)
        Issue.record(
            """
            \(name).txt differs at line \(line + 1) (re-record with ITEMAUDIT_RECORD_SNAPSHOTS=1 if the change is intended)
            expected: \(line < old.count ? String(old[line]) : "<end>")
            actual:   \(line < new.count ? String(new[line]) : "<end>")
            """, sourceLocation: sourceLocation)
    }

    /// Replaces every match of `pattern` with `replacement`.
    static func mask(_ pattern: String, with replacement: String) -> (String) -> String {
        { text in
            text.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
        }
    }
}
