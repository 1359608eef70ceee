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
                guard let (_, unit) = firstQuantity(span) else { return .missing }
                return .text(unit)
            case .isQuantity: return .bool(isQuantity(span))
            case .dimension:
                guard let (_, unit) = firstQuantity(span), let known = program.unitTable.lookup(buffer(unit)) else {
                    return .missing
                }
                return .text(store(Bytes.units[Int(known)].dimension.rawValue))
            default: return .bool(Bytes.number(text) != nil)
            }
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
            let gtin: GTIN
            do throws(GS1Error) { gtin = try GTIN(utf8: buffer(span)) } catch {
                return builtin == .gtinValid ? .bool(false) : .missing
            }
            switch builtin {
            case .gtinValid: return .bool(true)
            case .gtinLength: return .number(Double(gtin.length))
            case .gtinPackagingIndicator: return .number(Double(gtin.packagingIndicator))
            default: return .text(store(GTINFunctions.kind(gtin.prefix.kind)))
            }
        default: return nil
        }
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

    /// `Quantity.all(text).first`.
    private func firstQuantity(_ span: Span) -> (Double, Span)? {
        var found: (Double, Span)?
        forEachPart(span) { part in
            found = quantity(part)
            return found == nil
        }
        return found
    }

    /// `num(x)`: the first part as a plain number, else as a quantity's number.
    private func num(_ span: Span) -> Fast {
        var head = span
        forEachPart(span) { part in
            head = part
            return false
        }
        if let number = Bytes.number(buffer(head)) { return .number(number) }
        return quantity(head).map { .number($0.0) } ?? .missing
    }

    /// `isQuantity(x)`: at least one part, and every part a number and a known unit.
    private func isQuantity(_ span: Span) -> Bool {
        var any = false
        var all = true
        forEachPart(span) { part in
            any = true
            guard let (_, unit) = quantity(part), program.unitTable.lookup(buffer(unit)) != nil else {
                all = false
                return false
            }
            return true
        }
        return any && all
    }
}
