import Foundation
import Logging

/// The rule sets compiled into the binary from `Schemas/rules/` (see `tools/generate-rules`).
public enum BuiltInRuleSets {
    static let preludeFile = "Schemas/rules/prelude.rules"

    /// The names of the built-in sets (`gs1-identification`, `nutrition`, …).
    public static var names: [String] {
        files.map { ($0.file as NSString).lastPathComponent.replacingOccurrences(of: ".rules", with: "") }
    }

    /// An engine for the given selection: names of built-in sets and paths of rule files; empty means all built-in sets.
    public static func engine(selection: [String] = [], logger: Logger? = nil) throws -> RuleEngine {
        if selection.isEmpty { return try RuleEngine(files: files, logger: logger) }
        var chosen: [(file: String, text: String)] = []
        for item in selection {
            if let index = names.firstIndex(of: item) {
                chosen.append(files[index])
            } else if FileManager.default.fileExists(atPath: item) {
                chosen.append((item, try String(contentsOfFile: item, encoding: .utf8)))
            } else {
                throw RuleSelectionError(
                    message:
                        "'\(item)' is neither a built-in rule set (\(names.joined(separator: ", "))) nor a rule file")
            }
        }
        return try RuleEngine(files: chosen, logger: logger)
    }
}

/// A `--rules` item that names no built-in set and no readable file.
public struct RuleSelectionError: Error, Sendable, CustomStringConvertible {
    /// The message.
    public var message: String
    /// A one-line description for messages.
    public var description: String { message }
}
