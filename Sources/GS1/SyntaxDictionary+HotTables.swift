/// Flat views of a dictionary for the parse and validation hot path: trivial values behind
/// raw pointers, indexed by definition, so reading them costs no reference counting.
///
/// `@unchecked Sendable`: the buffers are written once, in `HotTableStorage.init`, and only
/// read afterwards; they live as long as the `HotTableStorage` that the dictionary keeps.
struct HotTables: @unchecked Sendable {
    /// One definition, flattened: ranges into the other tables.
    struct Definition {
        var code: UInt32 = 0
        var predefinedLength: Int16 = -1
        var maxLength: UInt16 = 0
        var componentStart: UInt16 = 0
        var componentCount: UInt8 = 0
        var isPrimaryKey = false
        var isAttribute = false
        var ruleCount: UInt8 = 0
        var ruleStart: UInt16 = 0
        var excludeStart: UInt16 = 0
        var excludeCount: UInt8 = 0
        var sequenceCount: UInt8 = 0
        var sequenceStart: UInt16 = 0
    }

    /// One component, flattened.
    struct Component {
        var mask: UInt8 = 0
        var minLength: UInt8 = 0
        var maxLength: UInt8 = 0
        var isOptional = false
        var linterStart: UInt16 = 0
        var linterCount: UInt8 = 0
    }

    /// `count` entries of another table from `start`.
    struct Span {
        var start: UInt16
        var count: UInt16
    }

    /// Definition index by `SyntaxDictionary.slot`, -1 when undefined.
    let slots: UnsafePointer<Int16>
    let definitions: UnsafePointer<Definition>
    let components: UnsafePointer<Component>
    let linters: UnsafePointer<GS1Linter>
    /// Per `req=` rule: its alternatives (in `alternatives`).
    let rules: UnsafePointer<Span>
    /// Per alternative: its patterns (in `patterns`).
    let alternatives: UnsafePointer<Span>
    let patterns: UnsafePointer<AIPattern>
    /// Per Digital Link qualifier sequence: its definition indices (in `sequenceItems`).
    let sequences: UnsafePointer<Span>
    let sequenceItems: UnsafePointer<Int16>
    /// The character set bits of each byte (see `CharacterSets.membership`).
    let membership: UnsafePointer<UInt8>
    /// The definition index of AI (01), -1 when undefined.
    let gtinDefinition: Int

    /// The definition index of the AI of 2 to 4 digits at `bytes[start...]` with its length;
    /// GS1 AIs are prefix-free, so at most one length matches.
    @inline(__always)
    func indexOfAI(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, end: Int) -> (index: Int, length: Int)? {
        guard start + 2 <= end else { return nil }
        let d0 = Int(bytes[start] &- 0x30)
        let d1 = Int(bytes[start + 1] &- 0x30)
        guard d0 < 10 && d1 < 10 else { return nil }
        var value = d0 * 10 + d1
        var index = slots[value]
        if index >= 0 { return (Int(index), 2) }
        guard start + 3 <= end else { return nil }
        let d2 = Int(bytes[start + 2] &- 0x30)
        guard d2 < 10 else { return nil }
        value = value * 10 + d2
        index = slots[100 + value]
        if index >= 0 { return (Int(index), 3) }
        guard start + 4 <= end else { return nil }
        let d3 = Int(bytes[start + 3] &- 0x30)
        guard d3 < 10 else { return nil }
        index = slots[1100 + value * 10 + d3]
        return index >= 0 ? (Int(index), 4) : nil
    }

    /// The definition index of the AI spelled by exactly `bytes[start..<end]`, nil otherwise.
    @inline(__always)
    func exactAI(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, end: Int) -> Int? {
        let length = end - start
        guard length >= 2 && length <= 4 else { return nil }
        var value = 0
        for position in start..<end {
            let digit = Int(bytes[position] &- 0x30)
            guard digit < 10 else { return nil }
            value = value * 10 + digit
        }
        let index = slots[(length == 2 ? 0 : length == 3 ? 100 : 1100) + value]
        return index >= 0 ? Int(index) : nil
    }
}

/// Owns the buffers behind a `HotTables` and frees them with the dictionary.
///
/// `@unchecked Sendable`: immutable after `init` (see `HotTables`).
final class HotTableStorage: @unchecked Sendable {
    let tables: HotTables
    private let buffers: [UnsafeMutableRawPointer]

    init(definitions: [AIDefinition], slots: [Int16]) {
        var buffers: [UnsafeMutableRawPointer] = []
        func copy<T>(_ values: [T]) -> UnsafePointer<T> {
            let pointer = UnsafeMutablePointer<T>.allocate(capacity: max(values.count, 1))
            pointer.initialize(from: values, count: values.count)
            buffers.append(UnsafeMutableRawPointer(pointer))
            return UnsafePointer(pointer)
        }
        var indexOf: [String: Int] = [:]
        for (index, definition) in definitions.enumerated() { indexOf[definition.ai] = index }
        var flat: [HotTables.Definition] = []
        var components: [HotTables.Component] = []
        var linters: [GS1Linter] = []
        var rules: [HotTables.Span] = []
        var alternatives: [HotTables.Span] = []
        var patterns: [AIPattern] = []
        var sequences: [HotTables.Span] = []
        var sequenceItems: [Int16] = []
        for definition in definitions {
            var entry = HotTables.Definition()
            entry.code = AIPattern(definition.ai).value
            entry.predefinedLength = definition.hasPredefinedLength ? Int16(definition.maxLength) : -1
            entry.maxLength = UInt16(definition.maxLength)
            entry.componentStart = UInt16(components.count)
            entry.componentCount = UInt8(definition.components.count)
            entry.isPrimaryKey = definition.isDigitalLinkPrimaryKey
            entry.isAttribute = definition.isDigitalLinkAttribute
            for component in definition.components {
                components.append(
                    HotTables.Component(
                        mask: CharacterSets.mask(component.characterSet), minLength: UInt8(component.minLength),
                        maxLength: UInt8(component.maxLength), isOptional: component.isOptional,
                        linterStart: UInt16(linters.count), linterCount: UInt8(component.linters.count)))
                linters += component.linters
            }
            entry.ruleStart = UInt16(rules.count)
            entry.ruleCount = UInt8(definition.requires.count)
            for rule in definition.requires {
                rules.append(HotTables.Span(start: UInt16(alternatives.count), count: UInt16(rule.count)))
                for alternative in rule {
                    alternatives.append(HotTables.Span(start: UInt16(patterns.count), count: UInt16(alternative.count)))
                    patterns += alternative.map(AIPattern.init)
                }
            }
            entry.excludeStart = UInt16(patterns.count)
            entry.excludeCount = UInt8(definition.excludes.count)
            patterns += definition.excludes.map(AIPattern.init)
            entry.sequenceStart = UInt16(sequences.count)
            let qualifiers = definition.digitalLinkQualifiers ?? []
            entry.sequenceCount = UInt8(qualifiers.count)
            for sequence in qualifiers {
                sequences.append(HotTables.Span(start: UInt16(sequenceItems.count), count: UInt16(sequence.count)))
                sequenceItems += sequence.map { Int16(indexOf[$0] ?? -1) }
            }
            flat.append(entry)
        }
        tables = HotTables(
            slots: copy(slots), definitions: copy(flat), components: copy(components), linters: copy(linters),
            rules: copy(rules), alternatives: copy(alternatives), patterns: copy(patterns),
            sequences: copy(sequences), sequenceItems: copy(sequenceItems),
            membership: copy(CharacterSets.membership), gtinDefinition: indexOf["01"] ?? -1)
        self.buffers = buffers
    }

    deinit {
        for buffer in buffers { buffer.deallocate() }
    }
}
