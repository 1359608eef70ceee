import Datasheets
import GS1

/// Evaluates a `CompiledProgram` on one datasheet at a time: the attribute values are copied once
/// into a byte arena and referred to by slot; definitions and repeated subexpressions are computed
/// at most once per sheet.
///
/// A final class owning buffers allocated once and reused for every sheet (`RuleEngine` keeps a pool
/// of them): per-sheet state is reset by bumping `generation`, so nothing is cleared or reallocated.
/// One machine is used by one thread at a time.
///
/// Its stored properties skip the run-time exclusivity check (`@exclusivity(unchecked)`): a machine is
/// used by one thread at a time (`MachinePool` hands it out), and no method of it mutates a property
/// while another access to the same property is in progress (each mutation is a single statement
/// that reads only other state), so the check could never fire, yet it would run on every access
/// in the innermost loop of every check.
final class Machine {
    let program: CompiledProgram
    /// The arena: the program's constant texts, then the current sheet's bytes.
    @exclusivity(unchecked) private(set) var bytes: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var byteCount: Int
    @exclusivity(unchecked) private var byteCapacity: Int
    @exclusivity(unchecked) var lists: [Fast]
    /// Per slot: the value's bytes in the arena, valid when its stamp is the current generation.
    private let slots: UnsafeMutablePointer<Span>
    private let slotStamps: UnsafeMutablePointer<UInt32>
    /// Per slot: the folded (lower-case) bytes, computed on first use.
    private let foldedSlots: UnsafeMutablePointer<Span>
    private let foldedStamps: UnsafeMutablePointer<UInt32>
    private let definitionValues: UnsafeMutablePointer<Fast>
    private let definitionStamps: UnsafeMutablePointer<UInt32>
    private let memoValues: UnsafeMutablePointer<Fast>
    private let memoStamps: UnsafeMutablePointer<UInt32>
    private let slotCount: Int
    /// What the paths at each attribute index resolved to on earlier sheets.
    private let pathCache = PathCache()
    @exclusivity(unchecked) private var generation: UInt32 = 1
    /// The list items of `each` terms, in order of first appearance.
    @exclusivity(unchecked) var items: [(term: Int32, key: Span)] = []
    /// Members of the list items: (item index, member id, value).
    @exclusivity(unchecked) var members: [(item: Int32, member: Int32, value: Span)] = []
    /// Per item and member id (`item * memberCount + member`): the first such member's value.
    @exclusivity(unchecked) private var itemMembers: [Span] = []
    @exclusivity(unchecked) var currentItem: Int32 = -1
    /// The index of the attribute whose path is exactly `gtin`, if any.
    @exclusivity(unchecked) var gtinAttribute = -1
    /// The last GTIN text parsed on this sheet, and what it gave (nil: not a valid GTIN).
    @exclusivity(unchecked) private var lastGTINText = Span.none
    @exclusivity(unchecked) private var lastGTIN: (gtin: GTIN, kind: Span)?
    /// The ingredient statement last split for `unquantifiedIngredient` on this sheet (`.none`: none yet),
    /// its top-level ingredients and its folded copy in the arena: a sheet's product names share one split.
    @exclusivity(unchecked) var ingredientStatement = Span.none
    @exclusivity(unchecked) var ingredientParts: [Range<Int>] = []
    @exclusivity(unchecked) var foldedIngredientStatement = Span.none
    /// Scratch space for the name's words (see `IngredientList.unquantified`).
    @exclusivity(unchecked) var ingredientNameWords: [Range<Int>] = []
    /// The folded attribute text `mentionsAllergen` last read on this sheet (`.none`: none yet), and
    /// the allergens it names (bit per allergen index of the program's matcher).
    @exclusivity(unchecked) var allergenText = Span.none
    @exclusivity(unchecked) var allergenMask: UInt64 = 0
    /// Per `mentions` word list (by its start in `program.words`): its words grouped by first byte.
    @exclusivity(unchecked) var wordIndexes: [Int32: WordIndex] = [:]

    init(_ program: CompiledProgram, slotCount: Int) {
        self.program = program
        self.slotCount = slotCount
        let capacity = max(4096, program.constantBytes.count * 2)
        let arena = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        program.constantBytes.withUnsafeBufferPointer { constant in
            if let base = constant.baseAddress { arena.initialize(from: base, count: constant.count) }
        }
        bytes = arena
        byteCapacity = capacity
        byteCount = program.constantBytes.count
        lists = program.constantLists
        slots = Self.buffer(slotCount, Span.none)
        slotStamps = Self.buffer(slotCount, 0)
        foldedSlots = Self.buffer(slotCount, Span.none)
        foldedStamps = Self.buffer(slotCount, 0)
        definitionValues = Self.buffer(program.definitionRoots.count, Fast.missing)
        definitionStamps = Self.buffer(program.definitionRoots.count, 0)
        memoValues = Self.buffer(program.memoCount, Fast.missing)
        memoStamps = Self.buffer(program.memoCount, 0)
    }

    deinit {
        bytes.deallocate()
        slots.deallocate()
        slotStamps.deallocate()
        foldedSlots.deallocate()
        foldedStamps.deallocate()
        definitionValues.deallocate()
        definitionStamps.deallocate()
        memoValues.deallocate()
        memoStamps.deallocate()
    }

    private static func buffer<Element>(_ count: Int, _ value: Element) -> UnsafeMutablePointer<Element> {
        let pointer = UnsafeMutablePointer<Element>.allocate(capacity: max(count, 1))
        pointer.initialize(repeating: value, count: max(count, 1))
        return pointer
    }

    /// Forgets the previous sheet: everything stamped with an older generation is stale.
    func reset() {
        if generation == UInt32.max {
            generation = 0
            for stamps in [slotStamps, foldedStamps] { stamps.update(repeating: 0, count: max(slotCount, 1)) }
            definitionStamps.update(repeating: 0, count: max(program.definitionRoots.count, 1))
            memoStamps.update(repeating: 0, count: max(program.memoCount, 1))
        }
        generation += 1
        byteCount = program.constantBytes.count
        if lists.count != program.constantLists.count { lists.removeSubrange(program.constantLists.count...) }
        items.removeAll(keepingCapacity: true)
        members.removeAll(keepingCapacity: true)
        currentItem = -1
        gtinAttribute = -1
        lastGTINText = .none
        ingredientStatement = .none
        allergenText = .none
    }

    // MARK: - Arena

    /// The bytes of a span of the arena (valid until the next append).
    @inline(__always)
    func buffer(_ span: Span) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: bytes + Int(span.start), count: Int(span.count))
    }

    /// Makes room for `extra` more bytes (moves the arena: take pointers into it only afterwards).
    func reserve(_ extra: Int) {
        guard byteCount + extra > byteCapacity else { return }
        var capacity = byteCapacity * 2
        while capacity < byteCount + extra { capacity *= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        grown.update(from: bytes, count: byteCount)
        bytes.deallocate()
        bytes = grown
        byteCapacity = capacity
    }

    /// Copies bytes (not from the arena itself) to the end of the arena.
    func append(_ source: UnsafeBufferPointer<UInt8>) -> Span {
        reserve(source.count)
        let start = byteCount
        if let base = source.baseAddress { (bytes + start).update(from: base, count: source.count) }
        byteCount += source.count
        return Span(start: Int32(start), count: Int32(source.count))
    }

    /// Copies a string's bytes into the arena.
    func store(_ string: String) -> Span {
        if let span = string.utf8.withContiguousStorageIfAvailable({ append($0) }) { return span }
        var string = string
        return string.withUTF8 { append($0) }
    }

    /// Copies a span of the arena to its end, folded to lower case (see `TextSearch.folded`).
    func appendFolded(_ span: Span) -> Span {
        reserve(Int(span.count))
        let start = byteCount
        (bytes + start).update(from: bytes + Int(span.start), count: Int(span.count))
        byteCount += Int(span.count)
        TextSearch.fold(UnsafeMutableBufferPointer(start: bytes + start, count: Int(span.count)))
        return Span(start: Int32(start), count: span.count)
    }

    // MARK: - Loading

    /// Reads the datasheet's attributes into slots and list items (the recorded equivalence digests pin this):
    /// an exact path sets its slot; `path@lang` sets the slot of `path` when nothing did yet;
    /// `term[KEY].member` adds a member to the item `KEY` of an `each` term.
    func load(_ datasheet: Datasheet) {
        reset()
        pathCache.begin()
        datasheet.attributes.withUnsafeBufferPointer { attributes in
            for index in attributes.indices {
                let loaded: Void? = attributes[index].path.utf8.withContiguousStorageIfAvailable {
                    load(path: $0, value: attributes[index].value, index: index)
                }
                if loaded == nil {
                    var path = attributes[index].path
                    path.withUTF8 { load(path: $0, value: attributes[index].value, index: index) }
                }
            }
        }
        indexMembers()
    }

    /// Fills `itemMembers` from `members`, the first one of each item and member winning.
    private func indexMembers() {
        let memberCount = program.memberCount
        itemMembers.removeAll(keepingCapacity: true)
        guard memberCount > 0, !items.isEmpty else { return }
        itemMembers.append(contentsOf: repeatElement(Span.none, count: items.count * memberCount))
        for member in members where member.member >= 0 && Int(member.member) < memberCount {
            let index = Int(member.item) * memberCount + Int(member.member)
            if itemMembers[index].count < 0 { itemMembers[index] = member.value }
        }
    }

    private func load(path bytes: UnsafeBufferPointer<UInt8>, value: String, index: Int) {
        var valueSpan = Span.none
        let resolved = pathCache.resolve(bytes, program)
        if resolved.exact >= 0 {
            valueSpan = store(value)
            setSlot(Int(resolved.exact), valueSpan)
            if resolved.exact == program.gtinSlot, gtinAttribute < 0 { gtinAttribute = index }
        } else if resolved.language >= 0, slotStamps[Int(resolved.language)] != generation {
            valueSpan = store(value)
            setSlot(Int(resolved.language), valueSpan)
        }
        guard resolved.term >= 0 else { return }
        let term = resolved.term
        if valueSpan.count < 0 { valueSpan = store(value) }
        let keySpan = append(UnsafeBufferPointer(rebasing: bytes[Int(resolved.open + 1)..<Int(resolved.close)]))
        let member = resolved.member
        var itemIndex = -1
        for offset in items.indices where items[offset].term == term && sameText(items[offset].key, keySpan) {
            itemIndex = offset
            break
        }
        if itemIndex < 0 {
            items.append((term, keySpan))
            itemIndex = items.count - 1
        }
        members.append((Int32(itemIndex), member, valueSpan))
    }

    @inline(__always)
    private func setSlot(_ slot: Int, _ span: Span) {
        slots[slot] = span
        slotStamps[slot] = generation
    }

    /// The value of an attribute slot.
    @inline(__always)
    func slot(_ slot: Int) -> Span {
        slotStamps[slot] == generation ? slots[slot] : .none
    }

    /// The folded bytes of an attribute slot's text, folded on first use.
    func foldedSlot(_ slot: Int, _ span: Span) -> Span {
        if foldedStamps[slot] == generation { return foldedSlots[slot] }
        let folded = appendFolded(span)
        foldedSlots[slot] = folded
        foldedStamps[slot] = generation
        return folded
    }

    /// Text equality with Swift's semantics: equal bytes are equal; different ASCII texts are not;
    /// anything else is compared as strings (canonical equivalence).
    func sameText(_ a: Span, _ b: Span) -> Bool {
        let x = buffer(a)
        let y = buffer(b)
        if Bytes.equal(x, y) { return true }
        if Bytes.isASCII(x), Bytes.isASCII(y) { return false }
        return String(decoding: x, as: UTF8.self) == String(decoding: y, as: UTF8.self)
    }

    /// The GTIN a text spells and its prefix kind (stored in the arena), parsed once per text and sheet
    /// (`gtinValid`, `gtinPrefixKind`, … of one attribute share it); nil when it is not a valid GTIN.
    func parsedGTIN(_ span: Span) -> (gtin: GTIN, kind: Span)? {
        if span == lastGTINText { return lastGTIN }
        lastGTINText = span
        lastGTIN = nil
        if let gtin = try? GTIN(utf8: buffer(span)) {
            lastGTIN = (gtin, store(GTINFunctions.kind(gtin.prefix.kind)))
        }
        return lastGTIN
    }

    // MARK: - Evaluation

    /// Evaluates a definition, cached for the sheet unless it reads the current item.
    func definition(_ index: Int) -> Fast {
        if definitionStamps[index] == generation { return definitionValues[index] }
        let value = evaluate(program.definitionRoots[index])
        if !program.definitionReadsItem[index] {
            definitionValues[index] = value
            definitionStamps[index] = generation
        }
        return value
    }

    /// Evaluates a node with three-valued logic (the semantics of the rule language, as documented
    /// in `Schemas/rules/`).
    func evaluate(_ index: Int32) -> Fast {
        let node = program.nodes[Int(index)]
        if node.memo >= 0 {
            let memo = Int(node.memo)
            if memoStamps[memo] == generation { return memoValues[memo] }
            let value = compute(node)
            memoValues[memo] = value
            memoStamps[memo] = generation
            return value
        }
        return compute(node)
    }

    private func argument(_ node: Node, _ offset: Int) -> Fast {
        evaluate(program.arguments[Int(node.b) + offset])
    }

    private func compute(_ node: Node) -> Fast {
        switch node.op {
        case .constant: return program.constants[Int(node.a)]
        case .attribute:
            let span = slot(Int(node.a))
            return span.count > 0 ? .text(span) : .missing
        case .itemMember:
            guard currentItem >= 0 else { return .missing }
            let value = itemMembers[Int(currentItem) * program.memberCount + Int(node.a)]
            return value.count > 0 ? .text(value) : .missing
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
            return number(evaluate(node.a)).map { .number(-$0) } ?? .missing
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
            return compare(Program.comparison(node.c), a, b)
        case .compareConstant:
            return compare(Program.comparison(node.c), evaluate(node.a), program.constants[Int(node.b)])
        case .arithmetic:
            let a = evaluate(node.a)
            let b = evaluate(node.b)
            return arithmetic(Program.arithmetic(node.c), a, b)
        case .member:
            let value = evaluate(node.a)
            if case .missing = value { return .missing }
            for offset in 0..<Int(node.c) where compare(.equal, value, argument(node, offset)) == .bool(true) {
                return .bool(true)
            }
            return .bool(false)
        case .memberSet:
            return memberSet(evaluate(node.a), set: Int(node.b))
        case .list:
            var values: [Fast] = []
            for offset in 0..<Int(node.c) { values.append(argument(node, offset)) }
            let start = Int32(lists.count)
            lists += values
            return .list(Span(start: start, count: Int32(values.count)))
        case .conditional:
            switch evaluate(node.a).truth {
            case true?: return evaluate(node.b)
            case false?: return evaluate(node.c)
            case nil: return .missing
            }
        case .presentAttribute: return .bool(slot(Int(node.a)).count > 0)
        case .absentAttribute: return .bool(slot(Int(node.a)).count <= 0)
        case .present: return .bool(evaluate(node.a) != .missing)
        case .absent: return .bool(evaluate(node.a) == .missing)
        case .known: return .bool(evaluate(node.a).truth == true)
        case .abs:
            return number(evaluate(node.a)).map { .number(Swift.abs($0)) } ?? .missing
        case .minMax:
            var result: Double?
            for offset in 0..<Int(node.c) {
                guard let value = number(argument(node, offset)) else { continue }
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
        case .text(let span): Bytes.number(buffer(span))
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

    func arithmetic(_ op: ArithmeticOperator, _ a: Fast, _ b: Fast) -> Fast {
        if op == .add, case .text = a, number(a) == nil, b != .missing {
            return fast(Value.arithmetic(op, value(a), value(b)))
        }
        guard let x = number(a), let y = number(b) else { return .missing }
        switch op {
        case .add: return .number(x + y)
        case .subtract: return .number(x - y)
        case .multiply: return .number(x * y)
        case .divide: return y == 0 ? .missing : .number(x / y)
        }
    }

    /// `value in [constant texts]`: a byte-table lookup for ASCII text, item by item otherwise.
    func memberSet(_ value: Fast, set index: Int) -> Fast {
        switch value {
        case .missing: return .missing
        case .text(let span):
            let text = buffer(span)
            if Bytes.isASCII(text) {
                if program.setTables[index].lookup(text) != nil { return .bool(true) }
                if !program.setHasNonASCII[index] { return .bool(false) }
            }
        default: break
        }
        let items = program.setItems[index]
        for offset in 0..<Int(items.count)
        where compare(.equal, value, lists[Int(items.start) + offset]) == .bool(true) {
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
        case .text(let span): .text(Substring(text(span)))
        case .list(let span): .list(lists[span.range].map { value($0) })
        }
    }

    /// A compiled value for a `Value`, its text stored in the arena.
    func fast(_ value: Value) -> Fast {
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

    /// The text of a span of the arena.
    func text(_ span: Span) -> String {
        String(decoding: buffer(span), as: UTF8.self)
    }
}
