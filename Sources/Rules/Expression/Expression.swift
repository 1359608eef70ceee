/// A compiled rule expression.
///
/// Attribute references are resolved to slots when a rule set is compiled, so evaluation reads an
/// array instead of hashing paths.
indirect enum Expression: Sendable {
    case constant(Value)
    /// A datasheet attribute, by slot in the compiled rule set.
    case attribute(slot: Int, path: String)
    /// A member of the list item a rule iterates over (`$.allergenLevelOfContainmentCode`).
    case itemMember(String)
    /// The key of the current list item (`$key`).
    case itemKey
    /// A named definition, evaluated once per datasheet (or per item when it reads one).
    case define(index: Int, name: String)
    case not(Expression)
    case negate(Expression)
    case and(Expression, Expression)
    case or(Expression, Expression)
    case compare(ComparisonOperator, Expression, Expression)
    case arithmetic(ArithmeticOperator, Expression, Expression)
    case member(Expression, [Expression])
    case list([Expression])
    case conditional(Expression, Expression, Expression)
    case call(Builtin, [Expression])

    /// Whether the expression reads the current list item (so it cannot be cached per datasheet).
    var readsItem: Bool {
        switch self {
        case .itemMember, .itemKey: true
        case .constant, .attribute, .define: false
        case .not(let a), .negate(let a): a.readsItem
        case .and(let a, let b), .or(let a, let b), .compare(_, let a, let b), .arithmetic(_, let a, let b):
            a.readsItem || b.readsItem
        case .member(let a, let items): a.readsItem || items.contains { $0.readsItem }
        case .list(let items), .call(_, let items): items.contains { $0.readsItem }
        case .conditional(let a, let b, let c): a.readsItem || b.readsItem || c.readsItem
        }
    }
}

enum ComparisonOperator: String, Sendable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
}

enum ArithmeticOperator: String, Sendable {
    case add = "+"
    case subtract = "-"
    case multiply = "*"
    case divide = "/"
}
