import Datasheets

/// A span of bytes (in a sheet's arena) or of list items, by offset and length.
struct Span: Sendable, Equatable {
    var start: Int32
    var count: Int32

    static let none = Span(start: 0, count: -1)
    var range: Range<Int> { Int(start)..<Int(start + count) }
}

/// A value during compiled evaluation: like `Value`, but with no reference-counted payload (text and
/// lists point into the sheet's arenas), so copying one costs nothing.
enum Fast: Sendable, Equatable {
    case missing
    case bool(Bool)
    case number(Double)
    case text(Span)
    case list(Span)

    var truth: Bool? {
        switch self {
        case .bool(let flag): flag
        case .missing: nil
        default: true
        }
    }
}

/// The operations of compiled expressions.
enum Op: UInt8, Sendable {
    /// `a`: index in `constants`.
    case constant
    /// `a`: attribute slot.
    case attribute
    /// `a`: member name id.
    case itemMember
    case itemKey
    /// `a`: definition index.
    case define
    /// `a`: operand.
    case not, negate
    /// `a`, `b`: operands.
    case and, or
    /// `a`, `b`: operands; `c`: comparison (see `Program.comparison`).
    case compare
    /// `a`, `b`: operands; `c`: arithmetic operator.
    case arithmetic
    /// `a`: value; `b`, `c`: start and count of item nodes in `arguments`.
    case member
    /// `a`: value; `b`: constant set index.
    case memberSet
    /// `b`, `c`: start and count of item nodes in `arguments`.
    case list
    /// `a` condition, `b` then, `c` else.
    case conditional
    /// `a`: builtin index in `Builtin.allCases`; `b`, `c`: start and count of argument nodes.
    case call
    /// `a`: operand.
    case present, absent, known, abs
    /// `a`: quantity text; `b`: unit constant index; `c`: 1 to convert, 0 for the exact unit only.
    case convert
    /// `a`: text; `b`, `c`: start and count of folded words in `words`.
    case mentions
    /// `a`: text; `b`: code.
    case mentionsAllergen
    /// `b`, `c`: argument nodes; `a`: 0 min, 1 max.
    case minMax
    /// `present(attribute)`, `absent(attribute)`; `a`: attribute slot.
    case presentAttribute, absentAttribute
    /// `compare` with a constant right operand; `b`: index in `constants`.
    case compareConstant
}

/// One node of a compiled expression; children are node indices. `memo` is the per-sheet cache slot
/// of a node that does not read the current list item (-1: not cached).
struct Node: Sendable, Hashable {
    var op: Op
    var a: Int32 = 0
    var b: Int32 = 0
    var c: Int32 = 0
    var memo: Int32 = -1
}

/// A constant list of texts for `x in [...]`: the ASCII items in a byte table, the others checked one by one.
struct ConstantSet: Sendable {
    var table: ByteTable
    var items: Span
    var nonASCII: [Span]
}

/// A unit a rule converts to: its bytes (in the constant arena) and its dimension and factor, if known.
struct TargetUnit: Sendable {
    var text: Span
    var known: (dimension: Quantity.Dimension, factor: Double)?
}

/// The compiled form of every loaded rule: a flat node array and the constants, built once.
struct Program: Sendable {
    var nodes: [Node] = []
    var arguments: [Int32] = []
    var constants: [Fast] = []
    var constantBytes: [UInt8] = []
    var constantLists: [Fast] = []
    var sets: [ConstantSet] = []
    var units: [TargetUnit] = []
    var words: [Span] = []
    var definitionRoots: [Int32] = []
    var definitionReadsItem: [Bool] = []
    var memoCount = 0
    var memberNames: [String: Int32] = [:]

    static let comparisons: [ComparisonOperator] = [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual]
    static let arithmetics: [ArithmeticOperator] = [.add, .subtract, .multiply, .divide]

    /// The comparison with index `code` in `comparisons` (without touching the array).
    @inline(__always)
    static func comparison(_ code: Int32) -> ComparisonOperator {
        switch code {
        case 0: .equal
        case 1: .notEqual
        case 2: .less
        case 3: .lessOrEqual
        case 4: .greater
        default: .greaterOrEqual
        }
    }

    /// The operator with index `code` in `arithmetics`.
    @inline(__always)
    static func arithmetic(_ code: Int32) -> ArithmeticOperator {
        switch code {
        case 0: .add
        case 1: .subtract
        case 2: .multiply
        default: .divide
        }
    }
}

/// Compiles `Expression` trees into a `Program`, sharing identical subexpressions (so a value like
/// `gtinValid(gtin)` used by several rules is computed once per sheet).
struct ProgramBuilder {
    var program = Program()
    private var shared: [Node: Int32] = [:]
    private var constantTexts: [String: Span] = [:]
    let definitions: [Expression]

    init(definitions: [Expression], readsItem: [Bool]) {
        self.definitions = definitions
        program.definitionReadsItem = readsItem
        program.definitionRoots = Array(repeating: -1, count: definitions.count)
    }

    mutating func compileDefinitions() {
        for index in definitions.indices {
            program.definitionRoots[index] = compile(definitions[index])
        }
    }

    private mutating func add(_ node: Node, cacheable: Bool = false) -> Int32 {
        if let index = shared[node] { return index }
        var stored = node
        if cacheable {
            stored.memo = Int32(program.memoCount)
            program.memoCount += 1
        }
        program.nodes.append(stored)
        let index = Int32(program.nodes.count - 1)
        shared[node] = index
        return index
    }

    /// Gives a node a per-sheet cache slot (for nodes that do not read the list item: pure per sheet).
    private mutating func memoise(_ index: Int32) {
        guard program.nodes[Int(index)].memo < 0 else { return }
        program.nodes[Int(index)].memo = Int32(program.memoCount)
        program.memoCount += 1
    }

    private mutating func text(_ text: Substring) -> Span {
        if let span = constantTexts[String(text)] { return span }
        let span = Span(start: Int32(program.constantBytes.count), count: Int32(text.utf8.count))
        program.constantBytes += Array(text.utf8)
        constantTexts[String(text)] = span
        return span
    }

    private mutating func constantValue(_ value: Value) -> Fast {
        switch value {
        case .missing: return .missing
        case .bool(let flag): return .bool(flag)
        case .number(let number): return .number(number)
        case .text(let string): return .text(text(string))
        case .list(let items):
            let converted = items.map { constantValue($0) }
            let start = Int32(program.constantLists.count)
            program.constantLists += converted
            return .list(Span(start: start, count: Int32(converted.count)))
        }
    }

    private mutating func constant(_ value: Fast) -> Int32 {
        program.constants.append(value)
        return add(Node(op: .constant, a: Int32(program.constants.count - 1)))
    }

    /// The value of an expression made only of constants (and definitions of constants), if it is one.
    private func constantValue(of expression: Expression) -> Value? {
        switch expression {
        case .constant(let value): return value
        case .list(let items):
            var values: [Value] = []
            for item in items {
                guard let value = constantValue(of: item) else { return nil }
                values.append(value)
            }
            return .list(values)
        case .define(let index, _): return constantValue(of: definitions[index])
        default: return nil
        }
    }

    private mutating func arguments(_ items: [Expression]) -> (Int32, Int32) {
        let compiled = items.map { compile($0) }
        let start = Int32(program.arguments.count)
        program.arguments += compiled
        return (start, Int32(compiled.count))
    }

    /// A constant set when every item is a constant text.
    private mutating func constantSet(_ items: [Value]) -> Int32? {
        var texts: [Substring] = []
        for item in items {
            guard case .text(let text) = item else { return nil }
            texts.append(text)
        }
        guard case .list(let span) = constantValue(.list(items)) else { return nil }
        var table: [String: Int32] = [:]
        var nonASCII: [Span] = []
        for (offset, text) in texts.enumerated() {
            if text.utf8.allSatisfy({ $0 < 0x80 }) {
                if table[String(text)] == nil { table[String(text)] = Int32(offset) }
            } else if case .text(let textSpan) = program.constantLists[Int(span.start) + offset] {
                nonASCII.append(textSpan)
            }
        }
        program.sets.append(ConstantSet(table: ByteTable(table), items: span, nonASCII: nonASCII))
        return Int32(program.sets.count - 1)
    }

    /// Whether the expression reads the current list item, through definitions too.
    private func readsItem(_ expression: Expression) -> Bool {
        switch expression {
        case .itemMember, .itemKey: true
        case .constant, .attribute: false
        case .define(let index, _): readsItem(definitions[index])
        case .not(let a), .negate(let a): readsItem(a)
        case .and(let a, let b), .or(let a, let b), .compare(_, let a, let b), .arithmetic(_, let a, let b):
            readsItem(a) || readsItem(b)
        case .member(let a, let items): readsItem(a) || items.contains { readsItem($0) }
        case .list(let items), .call(_, let items): items.contains { readsItem($0) }
        case .conditional(let a, let b, let c): readsItem(a) || readsItem(b) || readsItem(c)
        }
    }

    mutating func compile(_ expression: Expression) -> Int32 {
        let cacheable = !readsItem(expression)
        switch expression {
        case .constant(let value): return constant(constantValue(value))
        case .attribute(let slot, _): return add(Node(op: .attribute, a: Int32(slot)))
        case .itemMember(let name):
            let id = program.memberNames[name] ?? Int32(program.memberNames.count)
            program.memberNames[name] = id
            return add(Node(op: .itemMember, a: id))
        case .itemKey: return add(Node(op: .itemKey))
        case .define(let index, _):
            // A definition that does not read the list item is its root node, cached per sheet (the
            // same value, without a `define` step); one that does is evaluated each time.
            let root = program.definitionRoots[index]
            if root >= 0, !program.definitionReadsItem[index] {
                memoise(root)
                return root
            }
            return add(Node(op: .define, a: Int32(index)))
        case .not(let inner): return add(Node(op: .not, a: compile(inner)))
        case .negate(let inner): return add(Node(op: .negate, a: compile(inner)))
        case .and(let left, let right): return add(Node(op: .and, a: compile(left), b: compile(right)))
        case .or(let left, let right): return add(Node(op: .or, a: compile(left), b: compile(right)))
        case .compare(let op, let left, let right):
            let index = Int32(Program.comparisons.firstIndex(of: op) ?? 0)
            let right = compile(right)
            if program.nodes[Int(right)].op == .constant {
                return add(Node(op: .compareConstant, a: compile(left), b: program.nodes[Int(right)].a, c: index))
            }
            return add(Node(op: .compare, a: compile(left), b: right, c: index))
        case .arithmetic(let op, let left, let right):
            let index = Int32(Program.arithmetics.firstIndex(of: op) ?? 0)
            return add(Node(op: .arithmetic, a: compile(left), b: compile(right), c: index))
        case .member(let left, let items):
            if case .list(let values)? = constantValue(of: .list(items)), let set = constantSet(values) {
                return add(Node(op: .memberSet, a: compile(left), b: set))
            }
            let (start, count) = arguments(items)
            return add(Node(op: .member, a: compile(left), b: start, c: count))
        case .list(let items):
            if let value = constantValue(of: expression) { return constant(constantValue(value)) }
            let (start, count) = arguments(items)
            return add(Node(op: .list, b: start, c: count))
        case .conditional(let condition, let whenTrue, let whenFalse):
            return add(Node(op: .conditional, a: compile(condition), b: compile(whenTrue), c: compile(whenFalse)))
        case .call(let builtin, let items):
            return call(builtin, items, cacheable: cacheable)
        }
    }

    private mutating func call(_ builtin: Builtin, _ items: [Expression], cacheable: Bool) -> Int32 {
        switch builtin {
        case .present, .absent:
            if case .attribute(let slot, _) = items[0] {
                return add(Node(op: builtin == .present ? .presentAttribute : .absentAttribute, a: Int32(slot)))
            }
            return add(Node(op: builtin == .present ? .present : .absent, a: compile(items[0])))
        case .known: return add(Node(op: .known, a: compile(items[0])))
        case .abs: return add(Node(op: .abs, a: compile(items[0])))
        case .min, .max:
            let (start, count) = arguments(items)
            return add(Node(op: .minMax, a: builtin == .min ? 0 : 1, b: start, c: count))
        case .inList:
            if case .list(let values)? = constantValue(of: items[1]), let set = constantSet(values) {
                return add(Node(op: .memberSet, a: compile(items[0]), b: set))
            }
        case .amount, .convert:
            if case .text(let unit)? = constantValue(of: items[1]) {
                let span = text(unit)
                program.units.append(TargetUnit(text: span, known: Quantity.units[String(unit)]))
                let node = Node(
                    op: .convert, a: compile(items[0]), b: Int32(program.units.count - 1),
                    c: builtin == .convert ? 1 : 0)
                return add(node, cacheable: cacheable)
            }
        case .mentions:
            var words: [Span] = []
            for item in items.dropFirst() {
                guard case .text(let word)? = constantValue(of: item) else { break }
                let folded = TextSearch.folded(word)
                words.append(Span(start: Int32(program.constantBytes.count), count: Int32(folded.count)))
                program.constantBytes += folded
            }
            if words.count == items.count - 1 {
                let start = Int32(program.words.count)
                program.words += words
                return add(
                    Node(op: .mentions, a: compile(items[0]), b: start, c: Int32(words.count)), cacheable: cacheable)
            }
        case .mentionsAllergen:
            return add(Node(op: .mentionsAllergen, a: compile(items[0]), b: compile(items[1])), cacheable: cacheable)
        default: break
        }
        let (start, count) = arguments(items)
        let index = Int32(Builtin.allCases.firstIndex(of: builtin) ?? 0)
        return add(Node(op: .call, a: index, b: start, c: count), cacheable: cacheable)
    }
}
