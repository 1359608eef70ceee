/// Parses the rule expression language (precedence from loosest to tightest):
///
///     if C then A else B
///     a or b          a and b          not a
///     a == b   a != b   a < b   a <= b   a > b   a >= b   a in [x, y]
///     a + b   a - b   (text + text concatenates)      a * b   a / b      -a
///     12.5   "text"   true   false   missing   [x, y]   (a)   f(a, b)
///     netContent   hasAllergen[AM].allergenLevelOfContainmentCode   $.member   $key   definedName
///
/// Nesting is bounded: an expression tree deeper than `maximumDepth` (through parentheses, `not`,
/// `-`, chains of `+`/`and`/`or`, or definitions that use definitions) is refused with its position,
/// so a hostile rule file cannot exhaust the stack of the parser, the compiler or the evaluator.
struct ExpressionParser {
    /// Resolves a name to a definition (and the depth of its tree); nil means "no such definition".
    typealias Resolver = (String) -> (expression: Expression, depth: Int)?

    /// The deepest expression tree accepted; the built-in rules stay well under 64.
    static let maximumDepth = 200

    private var tokens: [(Token, SourcePosition)]
    private var index = 0
    private let resolve: Resolver
    private let attributeSlot: (String) -> Int
    /// The depth of the tree the last parse function returned.
    private(set) var lastDepth = 0
    /// How many recursive parse calls are open (parentheses, `not`, `-`, `if`, lists, arguments).
    private var nesting = 0

    init(
        _ text: String, origin: SourcePosition, resolve: @escaping Resolver, attributeSlot: @escaping (String) -> Int
    ) throws(RuleFileError) {
        var lexer = Lexer(text, origin: origin)
        tokens = try lexer.tokens()
        self.resolve = resolve
        self.attributeSlot = attributeSlot
    }

    /// Parses the whole text as one expression.
    mutating func parse() throws(RuleFileError) -> Expression {
        let expression = try parseExpression()
        guard case .end = current else {
            throw RuleFileError(position, "unexpected \(describe(current)) after a complete expression")
        }
        return expression
    }

    private var current: Token { tokens[index].0 }
    private var position: SourcePosition { tokens[index].1 }

    private func describe(_ token: Token) -> String {
        switch token {
        case .number(let value): "number \(Value.format(value))"
        case .string(let text): "string \"\(text)\""
        case .name(let name): "'\(name)'"
        case .symbol(let symbol): "'\(symbol)'"
        case .end: "end of expression"
        }
    }

    /// Refuses a tree deeper than `maximumDepth`; `depth` is the depth of the node about to be built.
    private func limit(_ depth: Int) throws(RuleFileError) {
        guard depth <= Self.maximumDepth else {
            throw RuleFileError(
                position,
                "the expression is nested more than \(Self.maximumDepth) levels deep; split it into definitions or simplify it"
            )
        }
    }

    /// Opens one level of recursion, refusing to go deeper than `maximumDepth`.
    private mutating func enter() throws(RuleFileError) {
        nesting += 1
        try limit(nesting)
    }

    private mutating func advance() { if index < tokens.count - 1 { index += 1 } }

    private mutating func accept(name word: String) -> Bool {
        if case .name(word) = current {
            advance()
            return true
        }
        return false
    }

    private mutating func accept(symbol: String) -> Bool {
        if case .symbol(symbol) = current {
            advance()
            return true
        }
        return false
    }

    private mutating func expect(symbol: String, _ context: String) throws(RuleFileError) {
        guard accept(symbol: symbol) else {
            throw RuleFileError(position, "expected '\(symbol)' \(context), found \(describe(current))")
        }
    }

    private mutating func parseExpression() throws(RuleFileError) -> Expression {
        try enter()
        defer { nesting -= 1 }
        if accept(name: "if") {
            let condition = try parseExpression()
            var depth = lastDepth
            guard accept(name: "then") else {
                throw RuleFileError(position, "expected 'then' after the condition of 'if'")
            }
            let whenTrue = try parseExpression()
            depth = max(depth, lastDepth)
            guard accept(name: "else") else {
                throw RuleFileError(position, "expected 'else' in 'if … then … else …'")
            }
            let whenFalse = try parseExpression()
            depth = max(depth, lastDepth) + 1
            try limit(depth)
            lastDepth = depth
            return .conditional(condition, whenTrue, whenFalse)
        }
        return try parseOr()
    }

    private mutating func parseOr() throws(RuleFileError) -> Expression {
        var left = try parseAnd()
        var depth = lastDepth
        while accept(name: "or") {
            left = .or(left, try parseAnd())
            depth = max(depth, lastDepth) + 1
            try limit(depth)
        }
        lastDepth = depth
        return left
    }

    private mutating func parseAnd() throws(RuleFileError) -> Expression {
        var left = try parseNot()
        var depth = lastDepth
        while accept(name: "and") {
            left = .and(left, try parseNot())
            depth = max(depth, lastDepth) + 1
            try limit(depth)
        }
        lastDepth = depth
        return left
    }

    private mutating func parseNot() throws(RuleFileError) -> Expression {
        guard accept(name: "not") else { return try parseComparison() }
        try enter()
        defer { nesting -= 1 }
        let inner = try parseNot()
        lastDepth += 1
        try limit(lastDepth)
        return .not(inner)
    }

    private mutating func parseComparison() throws(RuleFileError) -> Expression {
        let left = try parseAdditive()
        let leftDepth = lastDepth
        if case .symbol(let symbol) = current, let op = ComparisonOperator(rawValue: symbol) {
            advance()
            let right = try parseAdditive()
            lastDepth = max(leftDepth, lastDepth) + 1
            try limit(lastDepth)
            return .compare(op, left, right)
        }
        if accept(name: "in") {
            let right = try parseAdditive()
            lastDepth = max(leftDepth, lastDepth) + 1
            try limit(lastDepth)
            guard case .list(let items) = right else {
                if case .define = right { return .call(.inList, [left, right]) }
                throw RuleFileError(position, "'in' needs a list: x in [\"A\", \"B\"] or a defined list")
            }
            return .member(left, items)
        }
        return left
    }

    private mutating func parseAdditive() throws(RuleFileError) -> Expression {
        var left = try parseMultiplicative()
        var depth = lastDepth
        while case .symbol(let symbol) = current, symbol == "+" || symbol == "-" {
            advance()
            left = .arithmetic(ArithmeticOperator(rawValue: symbol) ?? .add, left, try parseMultiplicative())
            depth = max(depth, lastDepth) + 1
            try limit(depth)
        }
        lastDepth = depth
        return left
    }

    private mutating func parseMultiplicative() throws(RuleFileError) -> Expression {
        var left = try parseUnary()
        var depth = lastDepth
        while case .symbol(let symbol) = current, symbol == "*" || symbol == "/" {
            advance()
            left = .arithmetic(ArithmeticOperator(rawValue: symbol) ?? .multiply, left, try parseUnary())
            depth = max(depth, lastDepth) + 1
            try limit(depth)
        }
        lastDepth = depth
        return left
    }

    private mutating func parseUnary() throws(RuleFileError) -> Expression {
        guard accept(symbol: "-") else { return try parsePrimary() }
        try enter()
        defer { nesting -= 1 }
        let inner = try parseUnary()
        lastDepth += 1
        try limit(lastDepth)
        return .negate(inner)
    }

    private mutating func parsePrimary() throws(RuleFileError) -> Expression {
        let start = position
        lastDepth = 1
        switch current {
        case .number(let value):
            advance()
            return .constant(.number(value))
        case .string(let text):
            advance()
            return .constant(.text(Substring(text)))
        case .symbol("("):
            advance()
            let inner = try parseExpression()
            try expect(symbol: ")", "to close '('")
            return inner
        case .symbol("["):
            advance()
            var items: [Expression] = []
            var depth = 0
            if !accept(symbol: "]") {
                repeat {
                    items.append(try parseExpression())
                    depth = max(depth, lastDepth)
                } while accept(symbol: ",")
                try expect(symbol: "]", "to close the list")
            }
            lastDepth = depth + 1
            try limit(lastDepth)
            return .list(items)
        case .name(let name):
            advance()
            switch name {
            case "true": return .constant(.bool(true))
            case "false": return .constant(.bool(false))
            case "missing": return .constant(.missing)
            case "$key": return .itemKey
            default: break
            }
            if accept(symbol: "(") {
                guard let builtin = Builtin(rawValue: name) else {
                    throw RuleFileError(
                        start,
                        "unknown function '\(name)'; known: \(Builtin.allCases.map(\.rawValue).joined(separator: ", "))"
                    )
                }
                var arguments: [Expression] = []
                var depth = 0
                if !accept(symbol: ")") {
                    repeat {
                        arguments.append(try parseExpression())
                        depth = max(depth, lastDepth)
                    } while accept(symbol: ",")
                    try expect(symbol: ")", "to close the arguments of \(name)")
                }
                lastDepth = depth + 1
                try limit(lastDepth)
                guard builtin.arity.contains(arguments.count) else {
                    throw RuleFileError(
                        start, "\(name) takes \(builtin.arityDescription) argument(s), given \(arguments.count)")
                }
                return .call(builtin, arguments)
            }
            if name.hasPrefix("$.") { return .itemMember(String(name.dropFirst(2))) }
            if name.hasPrefix("$") {
                throw RuleFileError(start, "'\(name)' is not valid; use $key or $.member inside an 'each' rule")
            }
            if let definition = resolve(name) {
                lastDepth = definition.depth + 1
                try limit(lastDepth)
                return definition.expression
            }
            guard name.first?.isLowercase == true else {
                throw RuleFileError(start, "'\(name)' is not defined; define it with 'define \(name) = …' first")
            }
            return .attribute(slot: attributeSlot(name), path: name)
        default:
            throw RuleFileError(start, "expected a value, found \(describe(current))")
        }
    }
}
