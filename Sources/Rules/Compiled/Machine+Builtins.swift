import Datasheets
import GS1

/// Byte-level versions of the functions rules call most, with exactly `Builtin.apply`'s results;
/// they answer only for what they handle (ASCII text), and nil sends the call to `Builtin.apply`.
extension Machine {
    func fastCall(_ builtin: Builtin, _ node: Node) -> Fast? {
        switch builtin {
        case .num, .unit, .isQuantity, .dimension, .isNumber:
            let first = evaluate(program.arguments[Int(node.b)])
            guard case .text(let span) = first else {
                if case .missing = first { return .missing }
                return nil
            }
            let text = buffer(span)
            guard Bytes.isASCII(text) else { return nil }
            switch builtin {
            case .num: return num(span)
            case .unit:
                guard let first = firstPart(span) else { return .missing }
                guard let (_, unit) = knownQuantity(first) else { return nil }
                return .text(unit)
            case .isQuantity: return isQuantity(span) ? .bool(true) : nil
            case .dimension:
                guard let first = firstPart(span) else { return .missing }
                guard let (_, unit) = knownQuantity(first), let known = program.unitTable.lookup(buffer(unit)) else {
                    return nil
                }
                return .text(store(Bytes.units[Int(known)].dimension.rawValue))
            default: return .bool(Bytes.number(text) != nil)
            }
        case .sameValueCount:
            return sameValueCount(node)
        case .maxPercentage:
            guard case .text(let span) = evaluate(program.arguments[Int(node.b)]) else { return nil }
            return IngredientList.maxPercentage(buffer(span)).map(Fast.number) ?? .missing
        case .letterShare:
            guard case .text(let span) = evaluate(program.arguments[Int(node.b)]) else { return nil }
            let text = buffer(span)
            // In ASCII every byte is one `Character` but CR LF, which is whitespace either way.
            guard Bytes.isASCII(text) else { return nil }
            var letters = 0
            var characters = 0
            for byte in text where byte != 0x20 && !(byte >= 0x09 && byte <= 0x0D) {
                characters += 1
                if (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") { letters += 1 }
            }
            return characters == 0 ? .missing : .number(Double(letters) / Double(characters))
        case .percentageSum:
            guard case .text(let span) = evaluate(program.arguments[Int(node.b)]) else { return nil }
            return IngredientList.topLevelPercentageSum(buffer(span)).map(Fast.number) ?? .missing
        case .unquantifiedIngredient:
            let name = evaluate(program.arguments[Int(node.b)])
            let statement = evaluate(program.arguments[Int(node.b) + 1])
            guard case .text(let nameSpan) = name, case .text(let statementSpan) = statement else { return nil }
            return unquantifiedIngredient(name: nameSpan, statement: statementSpan)
        case .round:
            let value = evaluate(program.arguments[Int(node.b)])
            let places = evaluate(program.arguments[Int(node.b) + 1])
            guard let amount = number(value), let decimals = number(places) else { return .missing }
            var scale = 1.0
            for _ in 0..<Int(decimals) { scale *= 10 }
            return .number((amount * scale).rounded() / scale)
        case .gtinValid, .gtinPrefixKind, .gtinPackagingIndicator, .gtinLength:
            let first = evaluate(program.arguments[Int(node.b)])
            guard case .text(let span) = first else { return nil }
            guard let gtin = parsedGTIN(span) else { return builtin == .gtinValid ? .bool(false) : .missing }
            switch builtin {
            case .gtinValid: return .bool(true)
            case .gtinLength: return .number(Double(gtin.gtin.length))
            case .gtinPackagingIndicator: return .number(Double(gtin.gtin.packagingIndicator))
            default: return .text(gtin.kind)
            }
        case .gtinError:
            let first = evaluate(program.arguments[Int(node.b)])
            guard case .text(let span) = first else { return nil }
            do throws(GS1Error) { _ = try GTIN(utf8: buffer(span)) } catch { return .text(store(error.message)) }
            return .missing
        case .dateParts, .length, .decimals, .count:
            let first = evaluate(program.arguments[Int(node.b)])
            guard case .text(let span) = first else {
                if case .missing = first { return builtin == .count ? .number(0) : .missing }
                return nil
            }
            let text = buffer(span)
            // Without non-ASCII bytes and carriage returns, every byte is one `Character`.
            guard Bytes.isASCII(text), !text.contains(0x0D) else { return nil }
            switch builtin {
            case .dateParts: return Self.dateParts(text).map { .number(Double($0)) } ?? .missing
            case .length: return .number(Double(text.count))
            case .count:
                var parts = 0
                forEachPart(span) { _ in
                    parts += 1
                    return true
                }
                return .number(Double(parts))
            default:
                // The first space-separated word (`split(separator: " ").first`), or the whole text.
                var head = text
                if let wordStart = text.firstIndex(where: { $0 != 0x20 }) {
                    let wordEnd = text[wordStart...].firstIndex(of: 0x20) ?? text.count
                    head = UnsafeBufferPointer(rebasing: text[wordStart..<wordEnd])
                }
                guard let point = head.firstIndex(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ",") }) else {
                    return .number(0)
                }
                return .number(Double(head.count - point - 1))
            }
        case .matches:
            let first = evaluate(program.arguments[Int(node.b)])
            let second = evaluate(program.arguments[Int(node.b) + 1])
            guard case .text(let textSpan) = first, case .text(let patternSpan) = second else {
                if case .missing = first { return .missing }
                if case .missing = second { return .missing }
                return nil
            }
            let text = buffer(textSpan)
            let pattern = buffer(patternSpan)
            guard Bytes.isASCII(text), Bytes.isASCII(pattern), !text.contains(0x0D), !pattern.contains(0x0D) else {
                return nil
            }
            guard text.count == pattern.count else { return .bool(false) }
            for index in 0..<text.count {
                let byte = text[index]
                switch pattern[index] {
                case UInt8(ascii: "9"): if byte < 0x30 || byte > 0x39 { return .bool(false) }
                case UInt8(ascii: "A"): if !(byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) { return .bool(false) }
                case let expected: if byte != expected { return .bool(false) }
                }
            }
            return .bool(true)
        default: return nil
        }
    }

    /// `DateText.parts` on ASCII bytes: `YYYY-MM-DD` 3, `YYYY-MM` 2, `YYYY` 1 (year from 1900, a real day).
    static func dateParts(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
        var pieces: [Range<Int>] = []
        pieces.reserveCapacity(3)
        var start = 0
        for end in 0...text.count where end == text.count || text[end] == UInt8(ascii: "-") {
            pieces.append(start..<end)
            start = end + 1
            if pieces.count > 3 { return nil }
        }
        func integer(_ range: Range<Int>) -> Int? { Self.integer(UnsafeBufferPointer(rebasing: text[range])) }
        guard (1...3).contains(pieces.count), pieces[0].count == 4, let year = integer(pieces[0]), year >= 1900 else {
            return nil
        }
        if pieces.count == 1 { return 1 }
        guard pieces[1].count == 2, let month = integer(pieces[1]), (1...12).contains(month) else { return nil }
        if pieces.count == 2 { return 2 }
        guard pieces[2].count == 2, let day = integer(pieces[2]) else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let length = month == 2 ? (leap ? 29 : 28) : (month == 4 || month == 6 || month == 9 || month == 11 ? 30 : 31)
        return (1...length).contains(day) ? 3 : nil
    }

    /// `Int(String)` on short ASCII text: an optional sign, then one or more digits.
    static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        var negative = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        guard index < bytes.count else { return nil }
        var value = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
            index += 1
        }
        return negative ? -value : value
    }

    /// Calls `body` with each non-empty `|`-separated part of an ASCII text (as `split(separator: "|")`),
    /// as a span; stops when it returns false.
    private func forEachPart(_ span: Span, _ body: (Span) -> Bool) {
        let text = buffer(span)
        var start = 0
        for end in 0...text.count where end == text.count || text[end] == UInt8(ascii: "|") {
            defer { start = end + 1 }
            guard end > start else { continue }
            if !body(Span(start: span.start + Int32(start), count: Int32(end - start))) { return }
        }
    }

    /// `Quantity(part)` on bytes: the number before the first space and the unit after the spaces.
    private func quantity(_ part: Span) -> (Double, Span)? {
        let bytes = buffer(part)
        guard let space = bytes.firstIndex(of: 0x20) else { return nil }
        var unitStart = space
        while unitStart < bytes.count, bytes[unitStart] == 0x20 { unitStart += 1 }
        guard unitStart < bytes.count, let number = Bytes.number(UnsafeBufferPointer(rebasing: bytes[..<space])) else {
            return nil
        }
        return (number, Span(start: part.start + Int32(unitStart), count: part.count - Int32(unitStart)))
    }

    /// The first non-empty `|`-separated part; nil when there is none.
    private func firstPart(_ span: Span) -> Span? {
        var found: Span?
        forEachPart(span) { part in
            found = part
            return false
        }
        return found
    }

    /// `quantity(part)` when its unit is a known Rec 20 code: then `Quantity.reading` reads it the same
    /// way; anything else (a label's `300g`, an unknown unit) is left to `Builtin.apply`.
    private func knownQuantity(_ part: Span) -> (Double, Span)? {
        guard let (number, unit) = quantity(part), program.unitTable.lookup(buffer(unit)) != nil else { return nil }
        return (number, unit)
    }

    /// `num(x)`: the first part as a plain number, else as a quantity's number; nil (to `Builtin.apply`)
    /// when the part is no quantity in a known unit.
    private func num(_ span: Span) -> Fast? {
        guard let head = firstPart(span) else { return .missing }
        if let number = Bytes.number(buffer(head)) { return .number(number) }
        return knownQuantity(head).map { .number($0.0) }
    }

    /// `isQuantity(x)` when true: at least one part, and every part a number and a known unit code.
    private func isQuantity(_ span: Span) -> Bool {
        var any = false
        var all = true
        forEachPart(span) { part in
            any = true
            guard knownQuantity(part) != nil else {
                all = false
                return false
            }
            return true
        }
        return any && all
    }

    /// `IngredientList.unquantified` with the statement split and folded once per sheet (EU-017 asks for
    /// two names against the same list) and the folded name in the arena: no allocation per call.
    func unquantifiedIngredient(name nameSpan: Span, statement statementSpan: Span) -> Fast {
        if ingredientStatement != statementSpan {
            ingredientStatement = statementSpan
            IngredientList.ingredients(buffer(statementSpan), into: &ingredientParts)
            foldedIngredientStatement = ingredientParts.count >= 2 ? appendFolded(statementSpan) : .none
        }
        guard ingredientParts.count >= 2 else { return .missing }
        let foldedName = appendFolded(nameSpan)
        guard
            let range = IngredientList.unquantified(
                parts: ingredientParts, statement: buffer(foldedIngredientStatement), original: buffer(statementSpan),
                name: buffer(foldedName), nameWords: &ingredientNameWords)
        else { return .missing }
        return .text(Span(start: statementSpan.start + Int32(range.lowerBound), count: Int32(range.count)))
    }

    /// `sameValueCount` when every argument is a number, a flag or missing (as `Builtin.apply` counts
    /// them: missing ones left out, flags as 0 or 1); nil otherwise (text goes through `Builtin.apply`).
    func sameValueCount(_ node: Node) -> Fast? {
        let count = Int(node.c)
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: max(count, 1)) { values in
            var present = 0
            for offset in 0..<count {
                switch evaluate(program.arguments[Int(node.b) + offset]) {
                case .number(let number):
                    values[present] = number
                    present += 1
                case .bool(let flag):
                    values[present] = flag ? 1 : 0
                    present += 1
                case .missing: continue
                default: return nil
                }
            }
            var best = 0
            for index in 0..<present where values[index] != 0 {
                var same = 0
                for other in 0..<present where values[other] == values[index] { same += 1 }
                best = max(best, same)
            }
            return .number(Double(best))
        }
    }
}
