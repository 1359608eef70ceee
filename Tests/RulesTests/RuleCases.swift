import Datasheets
import Foundation
import Rules
import Testing

/// The examples of `Schemas/rules/examples.txt` (`RuleExamples`): per rule, a passing and a failing datasheet.
struct RuleCase: Sendable, CustomTestStringConvertible {
    var rule: String
    var passes: Bool
    var datasheet: Datasheet
    var line: Int

    var testDescription: String { "\(rule) \(passes ? "pass" : "fail") (examples.txt:\(line))" }

    /// Every case in the examples file, in order.
    static let all: [RuleCase] = RuleExamples.all.map {
        RuleCase(rule: $0.rule, passes: $0.passes, datasheet: $0.datasheet, line: $0.line)
    }
}
