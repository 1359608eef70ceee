import Datasheets

/// Evaluates a `Program` on one datasheet: the attribute values are copied once into a byte arena
/// and referred to by slot; definitions and repeated subexpressions are computed at most once.
struct Machine {
    let program: Program
    var arena: [UInt8]
    var lists: [Fast]
    /// Per slot: the value's bytes in the arena (count -1: absent).
    var slots: [Span]
    /// Per slot: the folded (lower-case) bytes, computed on first use.
    var foldedSlots: [Span]
    var definitionValues: [Fast]
    var definitionDone: [Bool]
    var memoValues: [Fast]
    var memoDone: [Bool]
    /// The list items of `each` terms, in order of first appearance.
    var items: [(term: Int32, key: Span)] = []
    /// Members of the list items: (item index, member id, value).
    var members: [(item: Int32, member: Int32, value: Span)] = []
    var currentItem: Int32 = -1
    /// The index of the attribute whose path is exactly `gtin`, if any.
    var gtinAttribute = -1

    init(_ program: Program, slotCount: Int) {
        self.program = program
        arena = program.constantBytes
        lists = program.constantLists
        slots = Array(repeating: .none, count: slotCount)
        foldedSlots = Array(repeating: .none, count: slotCount)
        definitionValues = Array(repeating: .missing, count: program.definitionRoots.count)
        definitionDone = Array(repeating: false, count: program.definitionRoots.count)
        memoValues = Array(repeating: .missing, count: program.memoCount)
        memoDone = Array(repeating: false, count: program.memoCount)
    }

    /// Copies a string's bytes into the arena.
    mutating func store(_ string: String) -> Span {
        let start = Int32(arena.count)
        var string = string
        string.withUTF8 { arena.append(contentsOf: $0) }
        return Span(start: start, count: Int32(arena.count) - start)
    }

    /// Reads the datasheet's attributes into slots and list items, as the tree-walking interpreter did:
    /// an exact path sets its slot; `path@lang` sets the slot of `path` when nothing did yet;
    /// `term[KEY].member` adds a member to the item `KEY` of an `each` term.
    mutating func load(_ datasheet: Datasheet, engine: RuleEngine) {
        for (index, attribute) in datasheet.attributes.enumerated() {
            var path = attribute.path
            var valueSpan = Span.none
            path.withUTF8 { bytes in
                if let slot = engine.slotTable.lookup(bytes) {
                    valueSpan = store(attribute.value)
                    slots[Int(slot)] = valueSpan
                    if slot == engine.gtinSlot, gtinAttribute < 0 { gtinAttribute = index }
                } else if let at = bytes.firstIndex(of: UInt8(ascii: "@")),
                    let slot = engine.slotTable.lookup(UnsafeBufferPointer(rebasing: bytes[..<at])),
                    slots[Int(slot)].count < 0
                {
                    valueSpan = store(attribute.value)
                    slots[Int(slot)] = valueSpan
                }
                guard engine.hasEachTerms, let open = bytes.firstIndex(of: UInt8(ascii: "[")),
                    let close = bytes.firstIndex(of: UInt8(ascii: "]")),
                    let term = engine.termTable.lookup(UnsafeBufferPointer(rebasing: bytes[..<open]))
                else { return }
                if valueSpan.count < 0 { valueSpan = store(attribute.value) }
                let keySpan = Span(start: Int32(arena.count), count: Int32(close - open - 1))
                arena.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[(open + 1)..<close]))
                var memberStart = close + 1
                if memberStart < bytes.count, bytes[memberStart] == UInt8(ascii: ".") { memberStart += 1 }
                let member = engine.memberTable.lookup(UnsafeBufferPointer(rebasing: bytes[memberStart...])) ?? -1
                var itemIndex = -1
                for (offset, item) in items.enumerated() where item.term == term && sameText(item.key, keySpan) {
                    itemIndex = offset
                    break
                }
                if itemIndex < 0 {
                    items.append((term, keySpan))
                    itemIndex = items.count - 1
                }
                members.append((Int32(itemIndex), member, valueSpan))
            }
        }
    }

    /// Text equality with Swift's semantics: equal bytes are equal; different ASCII texts are not;
    /// anything else is compared as strings (canonical equivalence).
    func sameText(_ a: Span, _ b: Span) -> Bool {
        arena.withUnsafeBufferPointer { bytes in
            let x = UnsafeBufferPointer(rebasing: bytes[a.range])
            let y = UnsafeBufferPointer(rebasing: bytes[b.range])
            if Bytes.equal(x, y) { return true }
            if Bytes.isASCII(x), Bytes.isASCII(y) { return false }
            return String(decoding: x, as: UTF8.self) == String(decoding: y, as: UTF8.self)
        }
    }

    /// Evaluates a definition, cached for the sheet unless it reads the current item.
    mutating func definition(_ index: Int) -> Fast {
        if definitionDone[index] { return definitionValues[index] }
        let value = evaluate(program.definitionRoots[index])
        if !program.definitionReadsItem[index] {
            definitionValues[index] = value
            definitionDone[index] = true
        }
        return value
    }

    /// Evaluates a node with three-valued logic (see `Expression.evaluate`, the reference semantics).
    mutating func evaluate(_ index: Int32) -> Fast {
        let node = program.nodes[Int(index)]
        if node.memo >= 0 {
            if memoDone[Int(node.memo)] { return memoValues[Int(node.memo)] }
            let value = compute(node)
            memoValues[Int(node.memo)] = value
            memoDone[Int(node.memo)] = true
            return value
        }
        return compute(node)
    }

    private mutating func compute(_ node: Node) -> Fast {
        switch node.op {
        case .constant: return program.constants[Int(node.a)]
        case .attribute:
            let span = slots[Int(node.a)]
            return span.count > 0 ? .text(span) : .missing
        case .itemMember:
            for member in members where member.item == currentItem && member.member == node.a {
                return member.value.count > 0 ? .text(member.value) : .missing
            }
            return .missing
        case .itemKey:
            return currentItem >= 0 ? .text(items[Int(currentItem)].key) : .missing
        case .define: return definition(Int(node.a))
        case .not:
            switch evaluate(node.a).truth {
            case true?: return .bool(false)
            case false?: return .bool(true)
            case nil: return .missing
            }
        case .negate:
            let value = evaluate(node.a)
            return number(value).map { .number(-$0) } ?? .missing
        case .and:
            let a = evaluate(node.a).truth
            if a == false { return .bool(false) }
            let b = evaluate(node.b).truth
            if b == false { return .bool(false) }
            return a == true && b == true ? .bool(true) : .missing
        case .or:
            let a = evaluate(node.a).truth
            if a == true { return .bool(true) }
            let b = evaluate(node.b).truth
            if b == true { return .bool(true) }
            return a == false && b == false ? .bool(false) : .missing
        case .compare:
            let a = evaluate(node.a)
            let b = evaluate(node.b)
            return compare(Program.comparisons[Int(node.c)], a, b)
        case .arithmetic:
            let a = evaluate(node.a)
            let b = evaluate(node.b)
            return arithmetic(Program.arithmetics[Int(node.c)], a, b)
        case .member:
            let value = evaluate(node.a)
            if case .missing = value { return .missing }
            for offset in 0..<Int(node.c) {
                let item = evaluate(program.arguments[Int(node.b) + offset])
                if compare(.equal, value, item) == .bool(true) { return .bool(true) }
            }
            return .bool(false)
        case .memberSet:
            let value = evaluate(node.a)
            return memberSet(value, program.sets[Int(node.b)])
        case .list:
            var values: [Fast] = []
            for offset in 0..<Int(node.c) { values.append(evaluate(program.arguments[Int(node.b) + offset])) }
            let start = Int32(lists.count)
            lists += values
            return .list(Span(start: start, count: Int32(values.count)))
        case .conditional:
            switch evaluate(node.a).truth {
            case true?: return evaluate(node.b)
            case false?: return evaluate(node.c)
            case nil: return .missing
            }
        case .present: return .bool(evaluate(node.a) != .missing)
        case .absent: return .bool(evaluate(node.a) == .missing)
        case .known: return .bool(evaluate(node.a).truth == true)
        case .abs:
            let value = evaluate(node.a)
            return number(value).map { .number(Swift.abs($0)) } ?? .missing
        case .minMax:
            var result: Double?
            for offset in 0..<Int(node.c) {
                let argument = evaluate(program.arguments[Int(node.b) + offset])
                guard let value = number(argument) else { continue }
                guard let current = result else {
                    result = value
                    continue
                }
                result = node.a == 0 ? Swift.min(current, value) : Swift.max(current, value)
            }
            return result.map(Fast.number) ?? .missing
        case .convert: return convert(node)
        case .mentions: return mentions(node)
        case .mentionsAllergen: return mentionsAllergen(node)
        case .call: return call(node)
        }
    }

    /// The value as a number: numbers, plain-number text, booleans as 1 and 0.
    func number(_ value: Fast) -> Double? {
        switch value {
        case .number(let number): number
        case .text(let span):
            arena.withUnsafeBufferPointer { Bytes.number(UnsafeBufferPointer(rebasing: $0[span.range])) }
        case .bool(let flag): flag ? 1 : 0
        default: nil
        }
    }

    func compare(_ op: ComparisonOperator, _ a: Fast, _ b: Fast) -> Fast {
        if case .missing = a { return .missing }
        if case .missing = b { return .missing }
        switch (a, b) {
        case (.text(let x), .text(let y)):
            if op == .equal { return .bool(sameText(x, y)) }
            if op == .notEqual { return .bool(!sameText(x, y)) }
        case (.bool(let x), .bool(let y)):
            if op == .equal { return .bool(x == y) }
            if op == .notEqual { return .bool(x != y) }
        default: break
        }
        guard let x = number(a), let y = number(b) else {
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

    mutating func arithmetic(_ op: ArithmeticOperator, _ a: Fast, _ b: Fast) -> Fast {
        if op == .add, case .text = a, number(a) == nil, b != .missing {
            return fast(Expression.arithmetic(op, value(a), value(b)))
        }
        guard let x = number(a), let y = number(b) else { return .missing }
        switch op {
        case .add: return .number(x + y)
        case .subtract: return .number(x - y)
        case .multiply: return .number(x * y)
        case .divide: return y == 0 ? .missing : .number(x / y)
        }
    }

    func memberSet(_ value: Fast, _ set: ConstantSet) -> Fast {
        switch value {
        case .missing: return .missing
        case .text(let span):
            let found: Bool = arena.withUnsafeBufferPointer { bytes in
                let text = UnsafeBufferPointer(rebasing: bytes[span.range])
                guard Bytes.isASCII(text) else { return false }
                return set.table.lookup(text) != nil
            }
            if found { return .bool(true) }
            if set.nonASCII.isEmpty,
                arena.withUnsafeBufferPointer({ Bytes.isASCII(UnsafeBufferPointer(rebasing: $0[span.range])) })
            {
                return .bool(false)
            }
        default: break
        }
        for offset in 0..<Int(set.items.count)
        where compare(.equal, value, lists[Int(set.items.start) + offset]) == .bool(true) {
            return .bool(true)
        }
        return .bool(false)
    }

    /// The `Value` (with its own text) for a compiled value: for messages and the rarely used functions.
    func value(_ fast: Fast) -> Value {
        switch fast {
        case .missing: .missing
        case .bool(let flag): .bool(flag)
        case .number(let number): .number(number)
        case .text(let span):
            .text(
                Substring(
                    arena.withUnsafeBufferPointer {
                        String(decoding: UnsafeBufferPointer(rebasing: $0[span.range]), as: UTF8.self)
                    }))
        case .list(let span): .list(lists[span.range].map { value($0) })
        }
    }

    /// A compiled value for a `Value`, its text stored in the arena.
    mutating func fast(_ value: Value) -> Fast {
        switch value {
        case .missing: return .missing
        case .bool(let flag): return .bool(flag)
        case .number(let number): return .number(number)
        case .text(let text): return .text(store(String(text)))
        case .list(let items):
            let converted = items.map { fast($0) }
            let start = Int32(lists.count)
            lists += converted
            return .list(Span(start: start, count: Int32(converted.count)))
        }
    }
}

extension Machine {
    /// The text of a span of the arena.
    func text(_ span: Span) -> String {
        arena.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[span.range]), as: UTF8.self) }
    }
}
