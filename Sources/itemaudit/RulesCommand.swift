import ArgumentParser
import AuditService
import Foundation

/// `itemaudit rules list|show ID|lint FILE`: the rule sets as data.
struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List, show and lint the rule sets of Schemas/rules.",
        discussion: """
            Example:
              itemaudit rules list --format csv
              itemaudit rules show NUT-025
              itemaudit rules lint my-rules.rules
            """,
        subcommands: [List.self, Show.self, Lint.self])

    /// Rows as a table, CSV, or a JSON array of objects keyed by column.
    static func render(columns: [String], rows: [[String]], format: OutputFormat) -> String {
        guard format == .json else {
            return TextTable(columns: columns, rows: rows).render(format)
        }
        let objects = rows.map { row in Dictionary(uniqueKeysWithValues: zip(columns, row)) }
        guard let data = try? JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys])
        else { return "[]\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    static func engine() throws -> RuleEngine {
        do { return try RuleBook.engine() } catch {
            throw CLIFailure.badInput("the built-in rules do not compile: \(error) (rebuild with tools/generate-rules)")
        }
    }

    /// `rules list`: one row per rule.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List every built-in rule: id, set, severity, title, reference.",
            discussion: """
                Example:
                  itemaudit rules list --set nutrition --format json
                """)

        @OptionGroup var output: FormatOption

        @Option(help: "Only the rules of this set (gs1-identification, eu1169-particulars, allergens, …).")
        var set: String?

        func run() throws {
            let engine = try RulesCommand.engine()
            if let set, !RuleBook.setNames.contains(set) {
                throw CLIFailure.badInput(
                    "no rule set '\(set)' (choose one of \(RuleBook.setNames.joined(separator: ", ")))")
            }
            let rules = engine.rules.filter { set == nil || $0.ruleSet == set }
            let columns = ["id", "set", "severity", "title", "reference"]
            let rows = rules.map { [$0.id, $0.ruleSet, $0.severity.rawValue, $0.title, $0.reference] }
            print(RulesCommand.render(columns: columns, rows: rows, format: output.format), terminator: "")
        }
    }

    /// `rules show ID`: everything about one rule.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show one rule: what it reads, when it applies, its check, message and reference.",
            discussion: """
                Example:
                  itemaudit rules show ALG-003 --format json
                """)

        @Argument(help: "The rule id, e.g. NUT-025.")
        var id: String

        @OptionGroup var output: FormatOption

        func run() throws {
            let engine = try RulesCommand.engine()
            guard let rule = engine.rules.first(where: { $0.id.caseInsensitiveCompare(id) == .orderedSame }) else {
                throw CLIFailure.badInput("no rule '\(id)' (see 'itemaudit rules list')")
            }
            let fields: [(String, String)] = [
                ("id", rule.id), ("set", rule.ruleSet), ("title", rule.title), ("severity", rule.severity.rawValue),
                ("verdict", String(rule.severity.verdict.rawValue)), ("reads", rule.reads.joined(separator: ", ")),
                ("each", rule.each ?? ""), ("when", rule.whenText ?? ""), ("check", rule.checkText),
                ("message", rule.message), ("observed", rule.observedText ?? ""),
                ("expected", rule.expectedText ?? ""), ("attribute", rule.attribute), ("reference", rule.reference),
                ("source", rule.location.description),
            ]
            if output.format == .json {
                var object: [String: Any] = [:]
                for (key, value) in fields { object[key] = key == "reads" ? rule.reads : value }
                let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
                print(String(decoding: data, as: UTF8.self))
            } else {
                let rows = fields.filter { !$0.1.isEmpty }.map { [$0.0, $0.1] }
                print(
                    RulesCommand.render(columns: ["field", "value"], rows: rows, format: output.format), terminator: "")
            }
        }
    }

    /// `rules lint FILE`: problems in a rule file.
    struct Lint: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a rule file: syntax, expressions, duplicate ids and unknown attributes.",
            discussion: """
                Prints each problem as file:line:column: message. Exits 1 when there are problems, 2 when \
                the file cannot be read.

                Example:
                  itemaudit rules lint Schemas/rules/nutrition.rules
                """)

        @Argument(help: "The rule files to lint.")
        var files: [String]

        @OptionGroup var output: FormatOption

        func run() throws {
            var problems: [LintProblem] = []
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else {
                    throw CLIFailure.badInput("cannot read '\(file)' (check the path and its permissions)")
                }
                problems += RuleBook.lint(String(decoding: data, as: UTF8.self), file: file)
            }
            switch output.format {
            case .table:
                for problem in problems { print(problem.description) }
            case .json, .csv:
                let rows = problems.map {
                    [$0.position.file, String($0.position.line), String($0.position.column), $0.kind, $0.message]
                }
                print(
                    RulesCommand.render(
                        columns: ["file", "line", "column", "kind", "message"], rows: rows, format: output.format),
                    terminator: "")
            }
            if !problems.isEmpty {
                throw CLIFailure.problemsFound("\(problems.count) problem(s) in \(files.joined(separator: ", "))")
            }
        }
    }
}
