import Datasheets

extension Machine {
    /// `convert(x, "UNIT")` and `amount(x, "UNIT")` with a constant unit, on the bytes of ASCII text;
    /// anything else goes through `Builtin.apply`.
    func convert(_ node: Node) -> Fast {
        let first = evaluate(node.a)
        let unit = program.units[Int(node.b)]
        guard case .text(let span) = first else {
            if case .missing = first { return .missing }
            return generic(node.c == 1 ? .convert : .amount, [value(first), value(.text(unit.text))])
        }
        switch convertASCII(buffer(span), unit: unit, converting: node.c == 1) {
        case .some(let number?): return .number(number)
        case .some(nil): return .missing
        case .none: return generic(node.c == 1 ? .convert : .amount, [value(first), value(.text(unit.text))])
        }
    }

    /// The number of `text` in `unit` (`.some(nil)`: none), or nil when the text is not ASCII.
    private func convertASCII(_ text: UnsafeBufferPointer<UInt8>, unit: TargetUnit, converting: Bool) -> Double?? {
        guard Bytes.isASCII(text) else { return .none }
        let unitBytes = buffer(unit.text)
        var start = 0
        // The part written in exactly this unit (one space, then the code).
        for end in 0...text.count where end == text.count || text[end] == UInt8(ascii: "|") {
            defer { start = end + 1 }
            guard end > start else { continue }
            let part = UnsafeBufferPointer(rebasing: text[start..<end])
            guard let space = part.firstIndex(of: 0x20) else { continue }
            if Bytes.equal(UnsafeBufferPointer(rebasing: part[(space + 1)...]), unitBytes),
                let number = Bytes.number(UnsafeBufferPointer(rebasing: part[..<space]))
            {
                return .some(number)
            }
        }
        guard converting, let target = unit.known else { return .some(nil) }
        start = 0
        for end in 0...text.count where end == text.count || text[end] == UInt8(ascii: "|") {
            defer { start = end + 1 }
            guard end > start else { continue }
            let part = UnsafeBufferPointer(rebasing: text[start..<end])
            guard let space = part.firstIndex(of: 0x20) else { return .none }
            var unitStart = space
            while unitStart < part.count, part[unitStart] == 0x20 { unitStart += 1 }
            // A part in no known unit code may be a label's (`300g`, `1 litre`): `Builtin.apply` reads those.
            guard unitStart < part.count, let number = Bytes.number(UnsafeBufferPointer(rebasing: part[..<space])),
                let from = program.unitTable.lookup(UnsafeBufferPointer(rebasing: part[unitStart...]))
            else { return .none }
            let known = Bytes.units[Int(from)]
            guard known.dimension == target.dimension else { continue }
            return .some(number * known.factor / target.factor)
        }
        return .some(nil)
    }

    /// The folded bytes of a text, stored in the arena (cached per slot for attributes).
    func folded(_ node: Int32, _ span: Span) -> Span {
        let source = program.nodes[Int(node)]
        if source.op == .attribute { return foldedSlot(Int(source.a), span) }
        return appendFolded(span)
    }

    /// `mentions(text, "word", …)` with constant words (folded when compiled).
    func mentions(_ node: Node) -> Fast {
        let first = evaluate(node.a)
        guard case .text(let span) = first else {
            if case .missing = first { return .missing }
            var arguments = [value(first)]
            for offset in 0..<Int(node.c) {
                let word = program.words[Int(node.b) + offset]
                arguments.append(value(.text(word)))
            }
            // Words are stored folded; for non-text values fall back on the text form.
            return .bool(
                arguments.dropFirst().contains { word in
                    TextSearch.contains(TextSearch.folded(arguments[0].display), TextSearch.folded(word.display))
                })
        }
        let text = buffer(folded(node.a, span))
        let count = Int(node.c)
        if count <= 3 {
            for offset in 0..<count {
                let word = program.words[Int(node.b) + offset]
                if TextSearch.contains(text, buffer(word)) { return .bool(true) }
            }
            return .bool(false)
        }
        // Many words (the name lists of EU-006, EU-016): one pass over the text, trying only the words
        // that start with the text's byte there.
        let index = wordIndex(start: node.b, count: count)
        guard let base = text.baseAddress else { return .bool(false) }
        return index.starts.withUnsafeBufferPointer { starts in
            index.offsets.withUnsafeBufferPointer { offsets in
                for position in 0..<text.count {
                    let byte = Int(base[position])
                    for candidate in Int(starts[byte])..<Int(starts[byte + 1]) {
                        let word = program.words[Int(node.b) + Int(offsets[candidate])]
                        let length = Int(word.count)
                        guard length <= text.count - position else { continue }
                        if Bytes.equal(
                            UnsafeRawPointer(base + position), UnsafeRawPointer(bytes + Int(word.start)), count: length)
                        {
                            return .bool(true)
                        }
                    }
                }
                return .bool(false)
            }
        }
    }

    /// The words `program.words[start..<start + count]` grouped by first byte (empty words left out),
    /// built on first use and kept for the machine's life.
    func wordIndex(start: Int32, count: Int) -> WordIndex {
        if let index = wordIndexes[start] { return index }
        var starts = [Int32](repeating: 0, count: 257)
        var groups = [[Int32]](repeating: [], count: 256)
        for offset in 0..<count {
            let word = program.words[Int(start) + offset]
            if word.count > 0 { groups[Int(bytes[Int(word.start)])].append(Int32(offset)) }
        }
        var offsets: [Int32] = []
        for byte in 0..<256 {
            starts[byte] = Int32(offsets.count)
            offsets += groups[byte]
        }
        starts[256] = Int32(offsets.count)
        let index = WordIndex(starts: starts, offsets: offsets)
        wordIndexes[start] = index
        return index
    }

    /// `mentionsAllergen(text, code)`.
    func mentionsAllergen(_ node: Node) -> Fast {
        let first = evaluate(node.a)
        let code = evaluate(node.b)
        guard case .text(let span) = first, case .text(let codeSpan) = code else {
            return generic(.mentionsAllergen, [value(first), value(code)])
        }
        let matcher = program.allergens
        let text = buffer(codeSpan)
        let allergen = matcher._withUnsafeGuaranteedRef { $0.codes.lookup(text) }
        guard let allergen else { return .bool(false) }
        let source = program.nodes[Int(node.a)]
        guard source.op == .attribute else {
            let haystack = buffer(appendFolded(span))
            return .bool(matcher._withUnsafeGuaranteedRef { $0.mentions(folded: haystack, allergen: Int(allergen)) })
        }
        // An attribute's folded text stays put for the sheet: every allergen it names is found in
        // one pass, and the sheet's other allergen rules on it read the answer.
        let haystack = foldedSlot(Int(source.a), span)
        if haystack != allergenText {
            allergenText = haystack
            allergenMask = matcher._withUnsafeGuaranteedRef { $0.mentionedAllergens(folded: buffer(haystack)) }
        }
        return .bool(allergenMask & 1 << UInt64(allergen) != 0)
    }

    /// Any other function: on the bytes where `Machine+Builtins` knows how, otherwise through
    /// `Builtin.apply` on `Value`s (results are cached per sheet).
    func call(_ node: Node) -> Fast {
        let builtin = program.builtins[Int(node.a)]
        if let result = fastCall(builtin, node) { return result }
        var arguments: [Value] = []
        arguments.reserveCapacity(Int(node.c))
        for offset in 0..<Int(node.c) {
            let argument = evaluate(program.arguments[Int(node.b) + offset])
            arguments.append(value(argument))
        }
        return fast(builtin.apply(arguments))
    }

    func generic(_ builtin: Builtin, _ arguments: [Value]) -> Fast {
        fast(builtin.apply(arguments))
    }
}

/// Byte-level helpers with the same results as their `String` counterparts.
enum Bytes {
    static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard let x = a.baseAddress, let y = b.baseAddress else { return true }
        return equal(UnsafeRawPointer(x), UnsafeRawPointer(y), count: a.count)
    }

    /// Whether `count` bytes at `a` and `b` are equal, compared eight at a time.
    @inline(__always)
    static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        var offset = 0
        while offset + 8 <= count {
            if a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                != b.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            {
                return false
            }
            offset += 8
        }
        while offset < count {
            if a.load(fromByteOffset: offset, as: UInt8.self) != b.load(fromByteOffset: offset, as: UInt8.self) {
                return false
            }
            offset += 1
        }
        return true
    }

    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where byte >= 0x80 { return false }
        return true
    }

    /// `Quantity.number` on bytes: plain decimals here, anything unusual (exponents) through it.
    static func number(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var mantissa: Int64 = 0
        var scale = 0
        var digits = 0
        var negative = false
        var seenPoint = false
        var index = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= 0x30, byte <= 0x39 {
                if digits < 18 {
                    mantissa = mantissa * 10 + Int64(byte - 0x30)
                    if seenPoint { scale += 1 }
                } else if !seenPoint {
                    scale -= 1
                }
                digits += 1
            } else if (byte == UInt8(ascii: ".") || byte == UInt8(ascii: ",")) && !seenPoint {
                seenPoint = true
            } else if byte | 0x20 == UInt8(ascii: "e") {
                return Quantity.number(String(decoding: bytes, as: UTF8.self))
            } else {
                return nil
            }
            index += 1
        }
        guard digits > 0 else { return nil }
        var value = Double(mantissa)
        if scale > 0 {
            value /= powersOfTen[min(scale, 18)]
        } else if scale < 0 {
            value *= powersOfTen[min(-scale, 18)]
        }
        return negative ? -value : value
    }

    private static let powersOfTen: [Double] = (0...18).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// The Rec 20 units, in a byte table.
    static let units: [(dimension: Quantity.Dimension, factor: Double)] = Quantity.units.keys.sorted().compactMap {
        Quantity.units[$0]
    }
    static let unitTable = ByteTable(
        Dictionary(uniqueKeysWithValues: Quantity.units.keys.sorted().enumerated().map { ($1, Int32($0)) }))
}

/// Words of a `mentions` list grouped by first byte: the offsets (into the list) of the words starting
/// with byte `b` are `offsets[starts[b]..<starts[b + 1]]`.
struct WordIndex {
    let starts: [Int32]
    let offsets: [Int32]
}
