/// A `Program` frozen for evaluation: every table in a buffer allocated once, read without bounds
/// checks, copies or reference counting.
///
/// `@unchecked Sendable`: the buffers are written only in `init` and freed only in `deinit`; in
/// between they are read-only, so any number of threads may read them.
final class CompiledProgram: @unchecked Sendable {
    let nodes: UnsafeMutableBufferPointer<Node>
    let arguments: UnsafeMutableBufferPointer<Int32>
    let constants: UnsafeMutableBufferPointer<Fast>
    let sets: UnsafeMutableBufferPointer<ConstantSet>
    let units: UnsafeMutableBufferPointer<TargetUnit>
    let words: UnsafeMutableBufferPointer<Span>
    let definitionRoots: UnsafeMutableBufferPointer<Int32>
    let definitionReadsItem: UnsafeMutableBufferPointer<Bool>
    /// The constant texts, the start of every sheet's arena.
    let constantBytes: [UInt8]
    /// The constant lists, the start of every sheet's list arena.
    let constantLists: [Fast]
    let memoCount: Int
    /// `Builtin.allCases`, indexed by a `.call` node's `a`.
    let builtins: UnsafeMutableBufferPointer<Builtin>
    /// The allergen words (`mentionsAllergen`).
    let allergens = AllergenLexicon.matcher
    /// The Rec 20 unit codes (`Bytes.unitTable`).
    let unitTable = Bytes.unitTable

    init(_ program: Program) {
        nodes = Self.copy(program.nodes)
        arguments = Self.copy(program.arguments)
        constants = Self.copy(program.constants)
        sets = Self.copy(program.sets)
        units = Self.copy(program.units)
        words = Self.copy(program.words)
        definitionRoots = Self.copy(program.definitionRoots)
        definitionReadsItem = Self.copy(program.definitionReadsItem)
        constantBytes = program.constantBytes
        constantLists = program.constantLists
        memoCount = program.memoCount
        builtins = Self.copy(Builtin.allCases)
    }

    deinit {
        Self.free(nodes)
        Self.free(arguments)
        Self.free(constants)
        Self.free(sets)
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
