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

    /// Rows as a table, CSV, or a JSON array of objects keyed by column (printed like every command's JSON).
    static func render(columns: [String], rows: [[String]], output: FormatOption) -> String {
        guard output.format == .json else {
            return output.render(TextTable(columns: columns, rows: rows))
        }
        let objects = rows.map { row in Dictionary(uniqueKeysWithValues: zip(columns, row)) }
        return JSONOutput.text(objects, fallback: "[]")
    }

    /// How many rules a rule file defines (for the lint summary).
    static func ruleCount(inFile file: String) -> Int {
        guard let text = try? RuleBook.ruleFileText(file) else { return 0 }
        return text.split(separator: "\n").filter { $0.hasPrefix("rule ") }.count
    }

    static func engine() throws -> RuleEngine {
        do { return try RuleBook.engine(subject: nil) } catch {
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
            let columns = ["id", "set", "severity", "applies", "title", "reference"]
            let rows = rules.map {
                [$0.id, $0.ruleSet, $0.severity.rawValue, $0.applies.rawValue, $0.title, $0.reference]
            }
            print(RulesCommand.render(columns: columns, rows: rows, output: output), terminator: "")
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
            let examples = RuleBook.examples(of: rule.id)
            let passing = examples.first(where: \.passes).map { Self.describe($0, rule) } ?? ""
            let failing = examples.first(where: { !$0.passes }).map { Self.describe($0, rule) } ?? ""
            let fields: [(String, String)] = [
                ("id", rule.id), ("set", rule.ruleSet), ("title", rule.title), ("severity", rule.severity.rawValue),
                ("verdictLabel", rule.severity.verdict.name), ("applies", rule.applies.description),
                ("reads", rule.reads.joined(separator: ", ")), ("each", rule.each ?? ""), ("when", rule.whenText ?? ""),
                ("check", rule.checkText), ("message", rule.message), ("observed", rule.observedText ?? ""),
                ("expected", rule.expectedText ?? ""), ("attribute", rule.attribute), ("reference", rule.reference),
                ("passes", passing), ("fails", failing), ("source", rule.location.description),
            ]
            if output.format == .json {
                var object: [String: ShowValue] = [:]
                for (key, value) in fields { object[key] = .text(value) }
                object["reads"] = .list(rule.reads)
                object["verdict"] = .number(rule.severity.verdict.rawValue)
                object["applies"] = .text(rule.applies.rawValue)
                print(JSONOutput.text(object, fallback: "{}"), terminator: "")
            } else if output.format == .csv {
                // One row, every key (empty values are empty fields); `applies` as in JSON.
                let values = fields.map { (key: $0.0, value: $0.0 == "applies" ? rule.applies.rawValue : $0.1) }
                print(output.renderRecord(values), terminator: "")
            } else {
                print(
                    output.renderRecord(fields.filter { !$0.1.isEmpty }.map { (key: $0.0, value: $0.1) }),
                    terminator: "")
            }
        }

        /// An example in one line: the base datasheet, what differs from it, and the values the rule reads.
        static func describe(_ example: RuleExample, _ rule: Rule) -> String {
            let changes = example.edits.isEmpty ? "" : " with " + example.edits.joined(separator: "; ")
            var values: [String] = []
            for read in rule.reads {
                for attribute in example.datasheet.attributes
                where attribute.path == read || attribute.path.hasPrefix(read + "@")
                    || attribute.path.hasPrefix(read + ".")
                    || (rule.each != nil && attribute.path.hasSuffix("." + read))
                {
                    values.append("\(attribute.path) = \(attribute.value)")
                }
            }
            let shown = values.prefix(4).joined(separator: "; ") + (values.count > 4 ? "; …" : "")
            return "the '\(example.base)' datasheet\(changes) (Schemas/rules/examples.txt:\(example.line))"
                + (values.isEmpty ? "" : "; it reads \(shown)")
        }

        /// A value of `rules show --format json`.
        enum ShowValue: Encodable {
            case text(String)
            case list([String])
            case number(Int)

            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                switch self {
                case .text(let text): try container.encode(text)
                case .list(let list): try container.encode(list)
                case .number(let number): try container.encode(number)
                }
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
                let text: String
                do { text = try RuleBook.ruleFileText(file) } catch {
                    guard FileManager.default.contents(atPath: file) != nil else {
                        throw CLIFailure.badInput("cannot read '\(file)' (check the path and its permissions)")
                    }
                    throw CLIFailure.badInput(error.message)
                }
                problems += RuleBook.lint(text, file: file)
            }
            switch output.format {
            case .table:
                for problem in problems { print(problem.description) }
                if problems.isEmpty {
                    let rules = files.reduce(0) { $0 + RulesCommand.ruleCount(inFile: $1) }
                    print("\(files.count == 1 ? files[0] : "\(files.count) files"): \(rules) rules, no problems")
                }
            case .json:
                print(JSONOutput.text(problems.map(LintRow.init), fallback: "[]"), terminator: "")
            case .csv:
                let rows = problems.map {
                    [$0.position.file, String($0.position.line), String($0.position.column), $0.kind, $0.message]
                }
                print(
                    RulesCommand.render(
                        columns: ["file", "line", "column", "kind", "message"], rows: rows, output: output),
                    terminator: "")
            }
            if !problems.isEmpty {
                throw CLIFailure.problemsFound("\(problems.count) problem(s) in \(files.joined(separator: ", "))")
            }
        }

        /// One problem of `rules lint --format json`: line and column are numbers.
        struct LintRow: Encodable {
            var file: String
            var line: Int
            var column: Int
            var kind: String
            var message: String

            init(_ problem: LintProblem) {
                file = problem.position.file
                line = problem.position.line
                column = problem.position.column
                kind = problem.kind
                message = problem.message
            }
        }
    }
}
