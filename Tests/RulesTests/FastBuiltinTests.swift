import Datasheets
import Testing

@testable import Rules

/// The compiled evaluator's byte-level functions give exactly what `Builtin.apply` gives on `Value`s.
@Suite("Byte-level functions agree with Builtin.apply")
struct FastBuiltinTests {
    static let calls: [(Builtin, String)] = [
        (.num, "num(x)"), (.unit, "unit(x)"), (.isQuantity, "isQuantity(x)"), (.dimension, "dimension(x)"),
        (.isNumber, "isNumber(x)"), (.count, "count(x)"), (.length, "length(x)"), (.decimals, "decimals(x)"),
        (.dateParts, "dateParts(x)"), (.gtinValid, "gtinValid(x)"), (.gtinError, "gtinError(x)"),
        (.gtinPrefixKind, "gtinPrefixKind(x)"), (.gtinPackagingIndicator, "gtinPackagingIndicator(x)"),
        (.gtinLength, "gtinLength(x)"), (.matches, "matches(x, y)"), (.convert, "convert(x, \"GRM\")"),
        (.convert, "convert(x, \"MLT\")"), (.percentageSum, "percentageSum(x)"),
        (.letterShare, "letterShare(x)"),
    ]

    static let inputs: [String] = [
        "500 GRM", "1.5 LTR|150 CLT", "|500  GRM|", "12", "12,5", " 12.5 kg", "-3", "+4", "1e3", "abc", "500 XYZ",
        "500", "GRM 500", "2024-02-29", "2023-02-29", "2024-+1", "2024-1-01", "1899-01-01", "2024", "2024-13",
        "2024-12-31-1", "4006381333931", "4006381333932", "0200000000001", "978014300723", "12345678", "9501101020016",
        "FI", "F1", "24|12", "AA|AA", "mäti 5 GRM", "ab\r\ncd", "1.500 KGM|3 EA", "  ", "-", "0.25 P1",
        "300g", "225 g ℮", "1 litre", "4 x 125 g", "75 cl|0.75 LTR", "500 GRM|1 lb", "1 lb|500 GRM", "0,5 L e", "2 slices", "a\tb 1\r\n2", "@#1 x",
    ]

    @Test("every input, every function")
    func agree() throws {
        var text = "set t\ntitle t\n"
        for (index, call) in Self.calls.enumerated() {
            text += """
                rule T-\(index)
                  title t
                  severity failure
                  reads x
                  check true
                  message m
                  observed \(call.1)
                  reference r

                """
        }
        let engine = try RuleEngine(files: [("t.rules", text)])
        let machine = Machine(engine.program, slotCount: engine.slotCount)
        let planned = engine.plan.suffix(Self.calls.count)
        for input in Self.inputs {
            for pattern in ["999", "AA", "9A9", "AA|AA"] {
                machine.load(Datasheet(flat: [("x", input), ("y", pattern)]))
                for (rule, call) in zip(planned, Self.calls) {
                    let fast = machine.value(machine.evaluate(rule.observed))
                    var arguments: [Value] =
                        call.0 == .matches
                        ? [.text(Substring(input)), .text(Substring(pattern))] : [.text(Substring(input))]
                    if call.0 == .convert { arguments.append(.text(call.1.contains("GRM") ? "GRM" : "MLT")) }
                    let reference = call.0.apply(arguments)
                    #expect(fast == reference, "\(call.1) of \"\(input)\" (y = \(pattern))")
                }
            }
        }
    }
}
