/// A `Program` frozen for evaluation: every table in a buffer allocated once, read without bounds
/// checks, copies or reference counting.
///
/// `@unchecked Sendable`: the buffers are written only in `init` and freed only in `deinit`; in
/// between they are read-only, so any number of threads may read them.
final class CompiledProgram: @unchecked Sendable {
    let nodes: UnsafeMutableBufferPointer<Node>
    let arguments: UnsafeMutableBufferPointer<Int32>
    let constants: UnsafeMutableBufferPointer<Fast>
    let units: UnsafeMutableBufferPointer<TargetUnit>
    let words: UnsafeMutableBufferPointer<Span>
    let definitionRoots: UnsafeMutableBufferPointer<Int32>
    let definitionReadsItem: UnsafeMutableBufferPointer<Bool>
    /// The constant texts, the start of every sheet's arena.
    let constantBytes: [UInt8]
    /// The constant lists, the start of every sheet's list arena.
    let constantLists: [Fast]
    let memoCount: Int
    /// How many distinct item member names (`$.name`) the rules read.
    let memberCount: Int
    /// `Builtin.allCases`, indexed by a `.call` node's `a`.
    let builtins: UnsafeMutableBufferPointer<Builtin>
    /// The slot of the path `gtin` (-1: none).
    let gtinSlot: Int32
    /// Whether any rule iterates over a list term (`each`).
    let hasEachTerms: Bool
    /// Whether any attribute path a rule reads has a `[` (if none, a path with one is never a slot).
    let slotPathsHaveBrackets: Bool
    /// Attribute path → slot, list term → index, item member name → id.
    let slotTable: TableReference
    let termTable: TableReference
    let memberTable: TableReference
    /// Per constant set: its table, its items, whether it has non-ASCII items.
    let setTables: UnsafeMutableBufferPointer<TableReference>
    let setItems: UnsafeMutableBufferPointer<Span>
    let setHasNonASCII: UnsafeMutableBufferPointer<Bool>
    /// The Rec 20 unit codes (`Bytes.unitTable`).
    let unitTable: TableReference
    /// The allergen words (`mentionsAllergen`).
    let allergens: Unmanaged<AllergenMatcher>
    /// What the unmanaged references point at, kept alive as long as the program.
    private let owned: [AnyObject]

    init(
        _ program: Program, slotTable: ByteTable, termTable: ByteTable, memberTable: ByteTable,
        slotPathsHaveBrackets: Bool, gtinSlot: Int32, hasEachTerms: Bool
    ) {
        self.gtinSlot = gtinSlot
        self.hasEachTerms = hasEachTerms
        self.slotPathsHaveBrackets = slotPathsHaveBrackets
        let matcher = AllergenLexicon.matcher
        owned = [slotTable, termTable, memberTable, Bytes.unitTable, matcher] + program.sets.map(\.table)
        self.slotTable = TableReference(slotTable)
        self.termTable = TableReference(termTable)
        self.memberTable = TableReference(memberTable)
        unitTable = TableReference(Bytes.unitTable)
        allergens = Unmanaged.passUnretained(matcher)
        setTables = Self.copy(program.sets.map { TableReference($0.table) })
        setItems = Self.copy(program.sets.map(\.items))
        setHasNonASCII = Self.copy(program.sets.map { !$0.nonASCII.isEmpty })
        nodes = Self.copy(program.nodes)
        arguments = Self.copy(program.arguments)
        constants = Self.copy(program.constants)
        units = Self.copy(program.units)
        words = Self.copy(program.words)
        definitionRoots = Self.copy(program.definitionRoots)
        definitionReadsItem = Self.copy(program.definitionReadsItem)
        constantBytes = program.constantBytes
        constantLists = program.constantLists
        memoCount = program.memoCount
        memberCount = program.memberNames.count
        builtins = Self.copy(Builtin.allCases)
    }

    deinit {
        Self.free(nodes)
        Self.free(arguments)
        Self.free(constants)
        Self.free(setTables)
        Self.free(setItems)
        Self.free(setHasNonASCII)
        Self.free(units)
        Self.free(words)
        Self.free(definitionRoots)
        Self.free(definitionReadsItem)
        Self.free(builtins)
    }

    private static func copy<Element>(_ array: [Element]) -> UnsafeMutableBufferPointer<Element> {
        let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: max(array.count, 1))
        _ = buffer.initialize(from: array)
        return UnsafeMutableBufferPointer(rebasing: buffer[0..<array.count])
    }

    private static func free<Element>(_ buffer: UnsafeMutableBufferPointer<Element>) {
        buffer.deinitialize()
        buffer.baseAddress?.deallocate()
    }
}

/// A `ByteTable` reached without reference counting; whoever holds one keeps the table alive
/// (`CompiledProgram.owned`).
struct TableReference {
    private let table: Unmanaged<ByteTable>

    init(_ table: ByteTable) { self.table = .passUnretained(table) }

    @inline(__always)
    func lookup(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32? {
        table._withUnsafeGuaranteedRef { $0.lookup(bytes) }
    }
}
