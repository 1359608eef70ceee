/// Parses the rule expression language (precedence from loosest to tightest):
///
///     if C then A else B
///     a or b          a and b          not a
///     a == b   a != b   a < b   a <= b   a > b   a >= b   a in [x, y]
///     a + b   a - b   (text + text concatenates)      a * b   a / b      -a
///     12.5   "text"   true   false   missing   [x, y]   (a)   f(a, b)
///     netContent   hasAllergen[AM].allergenLevelOfContainmentCode   $.member   $key   definedName
struct ExpressionParser {
    /// Resolves a name to a definition or an attribute slot; nil means "no such definition".
    typealias Resolver = (String) -> Expression?

    private var tokens: [(Token, SourcePosition)]
    private var index = 0
    private let resolve: Resolver
    private let attributeSlot: (String) -> Int

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
        if accept(name: "if") {
            let condition = try parseExpression()
            guard accept(name: "then") else {
                throw RuleFileError(position, "expected 'then' after the condition of 'if'")
            }
            let whenTrue = try parseExpression()
            guard accept(name: "else") else {
                throw RuleFileError(position, "expected 'else' in 'if … then … else …'")
            }
            return .conditional(condition, whenTrue, try parseExpression())
        }
        return try parseOr()
    }

    private mutating func parseOr() throws(RuleFileError) -> Expression {
        var left = try parseAnd()
        while accept(name: "or") { left = .or(left, try parseAnd()) }
        return left
    }

    private mutating func parseAnd() throws(RuleFileError) -> Expression {
        var left = try parseNot()
        while accept(name: "and") { left = .and(left, try parseNot()) }
        return left
    }

    private mutating func parseNot() throws(RuleFileError) -> Expression {
        if accept(name: "not") { return .not(try parseNot()) }
        return try parseComparison()
    }

    private mutating func parseComparison() throws(RuleFileError) -> Expression {
        let left = try parseAdditive()
        if case .symbol(let symbol) = current, let op = ComparisonOperator(rawValue: symbol) {
            advance()
            return .compare(op, left, try parseAdditive())
        }
        if accept(name: "in") {
            let right = try parseAdditive()
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
        while case .symbol(let symbol) = current, symbol == "+" || symbol == "-" {
            advance()
            left = .arithmetic(ArithmeticOperator(rawValue: symbol) ?? .add, left, try parseMultiplicative())
        }
        return left
    }

    private mutating func parseMultiplicative() throws(RuleFileError) -> Expression {
        var left = try parseUnary()
        while case .symbol(let symbol) = current, symbol == "*" || symbol == "/" {
            advance()
            left = .arithmetic(ArithmeticOperator(rawValue: symbol) ?? .multiply, left, try parseUnary())
        }
        return left
    }

    private mutating func parseUnary() throws(RuleFileError) -> Expression {
        if accept(symbol: "-") { return .negate(try parseUnary()) }
        return try parsePrimary()
    }

    private mutating func parsePrimary() throws(RuleFileError) -> Expression {
        let start = position
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
            if !accept(symbol: "]") {
                repeat { items.append(try parseExpression()) } while accept(symbol: ",")
                try expect(symbol: "]", "to close the list")
            }
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
                if !accept(symbol: ")") {
                    repeat { arguments.append(try parseExpression()) } while accept(symbol: ",")
                    try expect(symbol: ")", "to close the arguments of \(name)")
                }
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
            if let definition = resolve(name) { return definition }
            guard name.first?.isLowercase == true else {
                throw RuleFileError(start, "'\(name)' is not defined; define it with 'define \(name) = …' first")
            }
            return .attribute(slot: attributeSlot(name), path: name)
        default:
            throw RuleFileError(start, "expected a value, found \(describe(current))")
        }
    }
}
