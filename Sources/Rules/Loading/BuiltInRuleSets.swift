import Foundation
import Logging

/// The rule sets compiled into the binary from `Schemas/rules/` (see `tools/generate-rules`).
public enum BuiltInRuleSets {
    static let preludeFile = "Schemas/rules/prelude.rules"

    /// The names of the built-in sets (`gs1-identification`, `nutrition`, …).
    public static var names: [String] {
        files.map { ($0.file as NSString).lastPathComponent.replacingOccurrences(of: ".rules", with: "") }
    }

    /// An engine for the given selection: names of built-in sets and paths of rule files; empty means all
    /// built-in sets. It checks the rules that apply to `subject` (by default a supplier's master data;
    /// nil: every rule).
    public static func engine(
        selection: [String] = [], subject: Applicability.Subject? = .masterData, logger: Logger? = nil
    ) throws -> RuleEngine {
        if selection.isEmpty { return try RuleEngine(files: files, subject: subject, logger: logger) }
        var chosen: [(file: String, text: String)] = []
        for item in selection {
            if let index = names.firstIndex(of: item) {
                chosen.append(files[index])
            } else if FileManager.default.fileExists(atPath: item) {
                chosen.append((item, try ruleFileText(item)))
            } else {
                throw RuleSelectionError(
                    message:
                        "'\(item)' is neither a built-in rule set (\(names.joined(separator: ", "))) nor a rule file")
            }
        }
        return try RuleEngine(files: chosen, subject: subject, logger: logger)
    }

    /// The text of a rule file, refused with its name and the first bad byte when it is not UTF-8.
    public static func ruleFileText(_ path: String) throws(RuleSelectionError) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RuleSelectionError(
                message: "cannot read the rule file '\(path)' (check the path and its permissions)")
        }
        let bytes = [UInt8](data)
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var line = 1
        var column = 1
        var offset = 0
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        decoding: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                offset += UTF8.width(scalar)
                if scalar == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            case .emptyInput, .error: break decoding
            }
        }
        throw RuleSelectionError(
            message:
                "\(path):\(line):\(column): the rule file is not UTF-8 text (a bad byte at offset \(offset)); save it as UTF-8"
        )
    }
}

/// A `--rules` item that names no built-in set and no readable file.
public struct RuleSelectionError: Error, Sendable, CustomStringConvertible {
    /// The message.
    public var message: String
    /// A one-line description for messages.
    public var description: String { message }
}
