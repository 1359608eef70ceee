import Datasheets
import GS1

extension Value {
    /// `a op b` with three-valued logic: `missing` propagates; texts compare as strings for `==`
    /// and `!=`, anything else as numbers.
    static func compare(_ op: ComparisonOperator, _ a: Value, _ b: Value) -> Value {
        if case .missing = a { return .missing }
        if case .missing = b { return .missing }
        switch (a, b) {
        case (.text(let x), .text(let y)):
            if op == .equal { return .bool(x == y) }
            if op == .notEqual { return .bool(x != y) }
        case (.bool(let x), .bool(let y)):
            if op == .equal { return .bool(x == y) }
            if op == .notEqual { return .bool(x != y) }
        default: break
        }
        guard let x = a.number, let y = b.number else {
            if op == .equal { return .bool(false) }
            if op == .notEqual { return .bool(true) }
            return .missing
        }
        switch op {
        case .equal: return .bool(x == y)
        case .notEqual: return .bool(x != y)
        case .less: return .bool(x < y)
        case .lessOrEqual: return .bool(x <= y)
        case .greater: return .bool(x > y)
        case .greaterOrEqual: return .bool(x >= y)
        }
    }

    /// `a op b`; `text + x` concatenates when the text is not a number.
    static func arithmetic(_ op: ArithmeticOperator, _ a: Value, _ b: Value) -> Value {
        if op == .add, case .text(let x) = a, Quantity.number(x) == nil, b != .missing {
            return .text(Substring(String(x) + b.display))
        }
        guard let x = a.number, let y = b.number else { return .missing }
        switch op {
        case .add: return .number(x + y)
        case .subtract: return .number(x - y)
        case .multiply: return .number(x * y)
        case .divide: return y == 0 ? .missing : .number(x / y)
        }
    }
}

extension Value {
    /// The truth of a value: booleans as such, `missing` as unknown, anything else as present.
    var truth: Bool? {
        switch self {
        case .bool(let flag): flag
        case .missing: nil
        default: true
        }
    }

    var text: Substring? {
        switch self {
        case .text(let text): text
        case .missing: nil
        default: Substring(display)
        }
    }
}

extension Builtin {
    /// Applies the function to evaluated arguments (evaluation is pure, so evaluating every argument first
    /// gives the same result as evaluating them as needed).
    func apply(_ arguments: [Value]) -> Value {
        let first = arguments[0]
        switch self {
        case .present: return .bool(first != .missing)
        case .absent: return .bool(first == .missing)
        case .num:
            guard let text = first.text else { return first.number.map(Value.number) ?? .missing }
            let head = text.split(separator: "|").first ?? text
            if let number = Quantity.number(head) { return .number(number) }
            return Quantity.reading(head).map { .number($0.value) } ?? .missing
        case .unit:
            guard let text = first.text, let quantity = Quantity.readingAll(text).first else { return .missing }
            return .text(Substring(quantity.unitCode))
        case .units:
            guard let text = first.text else { return .missing }
            return .list(Quantity.readingAll(text).map { .text(Substring($0.unitCode)) })
        case .amount, .convert:
            guard let text = first.text, case .text(let unit)? = arguments[1].textValue else {
                return .missing
            }
            // Fast path without allocating: the part written in exactly this unit.
            for part in text.utf8.split(separator: UInt8(ascii: "|")) {
                guard let space = part.firstIndex(of: UInt8(ascii: " ")) else { continue }
                let unitBytes = part[part.index(after: space)...]
                if unitBytes.elementsEqual(unit.utf8), let number = Quantity.number(Substring(part[..<space])) {
                    return .number(number)
                }
            }
            if self == .convert {
                for quantity in Quantity.readingAll(text) {
                    if let value = quantity.converted(to: String(unit)) { return .number(value) }
                }
            }
            return .missing
        case .dimension:
            guard let text = first.text, let dimension = Quantity.readingAll(text).first?.dimension else { return .missing }
            return .text(Substring(dimension.rawValue))
        case .isNumber:
            guard let text = first.text else { return .missing }
            return .bool(Quantity.number(text) != nil)
        case .isQuantity:
            guard let text = first.text else { return .missing }
            let parts = text.split(separator: "|")
            return .bool(
                !parts.isEmpty
                    && parts.allSatisfy { part in Quantity.reading(part).map { Quantity.units[$0.unitCode] != nil } ?? false })
        case .count:
            guard let text = first.text else { return .number(0) }
            return .number(Double(text.split(separator: "|").count))
        case .has:
            guard let text = first.text, let wanted = arguments[1].text else { return .missing }
            return .bool(text.split(separator: "|").contains { $0 == wanted })
        case .length:
            return first.text.map { .number(Double($0.count)) } ?? .missing
        case .lower:
            return first.text.map { .text(Substring($0.lowercased())) } ?? .missing
        case .mentions:
            guard let text = first.text else { return .missing }
            let haystack = TextSearch.folded(text)
            for argument in arguments.dropFirst() {
                if let word = argument.text, TextSearch.contains(haystack, TextSearch.folded(word)) {
                    return .bool(true)
                }
            }
            return .bool(false)
        case .mentionsAllergen:
            guard let text = first.text, let code = arguments[1].text else { return .missing }
            return .bool(AllergenLexicon.mentions(text, code: code))
        case .dateParts:
            guard let text = first.text else { return .missing }
            return DateText.parts(text).map { .number(Double($0)) } ?? .missing
        case .matches:
            guard let text = first.text, let pattern = arguments[1].text else { return .missing }
            return .bool(Self.matches(text, pattern))
        case .abs: return first.number.map { .number(Swift.abs($0)) } ?? .missing
        case .min, .max:
            var result = first.number
            for argument in arguments.dropFirst() {
                guard let value = argument.number else { continue }
                guard let current = result else {
                    result = value
                    continue
                }
                result = self == .min ? Swift.min(current, value) : Swift.max(current, value)
            }
            return result.map(Value.number) ?? .missing
        case .known:
            return .bool(first.truth == true)
        case .sameValueCount:
            var values: [Double] = first.number.map { [$0] } ?? []
            for argument in arguments.dropFirst() {
                if let value = argument.number { values.append(value) }
            }
            var best = 0
            for value in values where value != 0 {
                best = Swift.max(best, values.filter { $0 == value }.count)
            }
            return .number(Double(best))
        case .sameValueNames:
            return Self.sameValueNames(arguments)
        case .concat:
            return .text(Substring(arguments.map(\.display).joined()))
        case .unquantifiedIngredient:
            guard let name = first.text, let statement = arguments[1].text else { return .missing }
            let statementBytes = Array(statement.utf8)
            let nameBytes = Array(name.utf8)
            let range = statementBytes.withUnsafeBufferPointer { text in
                nameBytes.withUnsafeBufferPointer { IngredientList.unquantified(statement: text, name: $0) }
            }
            return range.map { .text(Substring(decoding: statementBytes[$0], as: UTF8.self)) } ?? .missing
        case .maxPercentage:
            guard let text = first.text else { return .missing }
            let bytes = Array(text.utf8)
            return bytes.withUnsafeBufferPointer { IngredientList.maxPercentage($0) }.map(Value.number) ?? .missing
        case .letterShare:
            guard let text = first.text else { return .missing }
            var letters = 0
            var characters = 0
            for character in text where !character.isWhitespace {
                characters += 1
                if character.isLetter { letters += 1 }
            }
            return characters == 0 ? .missing : .number(Double(letters) / Double(characters))
        case .percentageSum:
            guard let text = first.text else { return .missing }
            let bytes = Array(text.utf8)
            return bytes.withUnsafeBufferPointer { IngredientList.topLevelPercentageSum($0) }.map(Value.number)
                ?? .missing
        case .round:
            guard let value = first.number, let places = arguments[1].number else { return .missing }
            var scale = 1.0
            for _ in 0..<Int(places) { scale *= 10 }
            return .number((value * scale).rounded() / scale)
        case .decimals:
            guard let text = first.text else { return .missing }
            let head = text.split(separator: " ").first ?? text
            guard let point = head.firstIndex(where: { $0 == "." || $0 == "," }) else { return .number(0) }
            return .number(Double(head.distance(from: point, to: head.endIndex) - 1))
        case .inList:
            guard first != .missing else { return .missing }
            guard case .list(let items) = arguments[1] else { return .missing }
            return .bool(items.contains { Value.compare(.equal, first, $0) == .bool(true) })
        case .gtinValid, .gtinError, .gtinPrefixKind, .gtinPackagingIndicator, .gtinLength, .gtinCountry:
            guard let text = first.text else { return .missing }
            return GTINFunctions.call(self, String(text))
        }
    }

    /// The labels of the largest group of equal present, non-zero values among (label, value) pairs.
    static func sameValueNames(_ arguments: [Value]) -> Value {
        var pairs: [(label: String, value: Double)] = []
        var index = 0
        while index + 1 < arguments.count {
            if let value = arguments[index + 1].number, value != 0 {
                pairs.append((arguments[index].display, value))
            }
            index += 2
        }
        var best: [(label: String, value: Double)] = []
        for pair in pairs {
            let group = pairs.filter { $0.value == pair.value }
            if group.count > best.count { best = group }
        }
        guard best.count >= 2 else { return .missing }
        let labels = best.map(\.label)
        let list = labels.dropLast().joined(separator: ", ") + " and " + (labels.last ?? "")
        return .text(Substring("\(list): \(Value.format(best[0].value))"))
    }

    /// `9` matches a digit, `A` a letter, anything else itself.
    static func matches(_ text: Substring, _ pattern: Substring) -> Bool {
        guard text.count == pattern.count else { return false }
        for (character, expected) in zip(text, pattern) {
            switch expected {
            case "9": if !character.isASCII || !character.isNumber { return false }
            case "A": if !character.isLetter { return false }
            default: if character != expected { return false }
            }
        }
        return true
    }
}

extension Value {
    fileprivate var textValue: Value? {
        if case .text = self { return self }
        return nil
    }
}
