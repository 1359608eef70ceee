import Datasheets
import Testing

@testable import Rules

/// `unquantifiedIngredient` (one split of the list per sheet, shared by both names) and `sameValueCount`
/// on the machine give exactly what `Builtin.apply` gives, sheet after sheet on one machine.
@Suite("Machine QUID and same-value count agree with Builtin.apply")
struct FastIngredientTests {
    static let statements: [String] = [
        "Strawberries 12%, sugar, water", "strawberries, sugar, water", "Oat flakes 40%, milk chocolate (sugar, cocoa)",
        "mansikka, sokeri", "apples; pears (20 %); water", "yoghurt, strawberry", "  ,  , salt", "salt",
        "milk chocolate [sugar, cocoa], hazelnuts, sugar", "blåbär, socker, vatten", "",
    ]
    static let names: [String] = [
        "Strawberry jam", "Mansikkajogurtti", "Oat flakes with chocolate", "Strawberry yoghurt, 2.5 % fat",
        "Apple and pear juice", "Hazelnut milk chocolate", "BLÅBÄR sylt", "",
    ]

    static func engine() throws -> RuleEngine {
        var text = "set t\ntitle t\n"
        for (index, call) in [
            "unquantifiedIngredient(x, s)", "unquantifiedIngredient(z, s)",
            "sameValueCount(num(a), num(b), num(c), 0, 2)",
        ].enumerated() {
            text += """
                rule T-\(index)
                  title t
                  severity failure
                  reads x
                  check true
                  message m
                  observed \(call)
                  reference r

                """
        }
        return try RuleEngine(files: [("t.rules", text)])
    }

    @Test("every statement with every pair of names")
    func quid() throws {
        let engine = try Self.engine()
        let machine = Machine(engine.program, slotCount: engine.slotCount)
        let planned = Array(engine.plan.suffix(3))
        for statement in Self.statements {
            for (first, second) in zip(Self.names, Self.names.reversed()) {
                machine.load(Datasheet(flat: [("x", first), ("z", second), ("s", statement)]))
                for (rule, name) in zip(planned.prefix(2), [first, second]) {
                    let fast = machine.value(machine.evaluate(rule.observed))
                    let reference = Builtin.unquantifiedIngredient.apply([
                        .text(Substring(name)), .text(Substring(statement)),
                    ])
                    #expect(fast == reference, "\"\(name)\" against \"\(statement)\"")
                }
            }
        }
    }

    @Test("numbers, zeros, repeats and missing values")
    func sameValues() throws {
        let engine = try Self.engine()
        let machine = Machine(engine.program, slotCount: engine.slotCount)
        let rule = try #require(engine.plan.last)
        let values = ["2", "0", "2.0", "3", "abc", ""]
        for a in values {
            for b in values {
                for c in values {
                    machine.load(Datasheet(flat: [("a", a), ("b", b), ("c", c)].filter { !$0.1.isEmpty }))
                    let fast = machine.value(machine.evaluate(rule.observed))
                    let numbers = [a, b, c].map { Builtin.num.apply([$0.isEmpty ? .missing : .text(Substring($0))]) }
                    let reference = Builtin.sameValueCount.apply(numbers + [.number(0), .number(2)])
                    #expect(fast == reference, "\(a), \(b), \(c)")
                }
            }
        }
    }
}
