/// The GS1 Barcode Syntax Dictionary, parsed once: every AI's format, flags and associations.
///
/// The dictionary text is embedded in the module (generated from `Schemas/gs1/` by
/// `tools/generate-gs1-dictionary`), so it is available from any working directory.
public struct SyntaxDictionary: Sendable {
    /// The definitions in dictionary order (ranges such as 3100-3105 expanded).
    public let definitions: [AIDefinition]
    /// The dictionary's release line, e.g. "2026-01-27".
    public let release: String
    /// Index into `definitions` by `slot(ai)`, -1 when undefined.
    private let slots: [Int16]
    /// Hot-path views of the definitions, by index (no copy of a whole definition).
    let components: [[AIComponent]]
    let aiNames: [String]
    let predefinedLengths: [Int]
    /// Flat tables for the hot path; valid while `hotStorage` lives (as long as `self`).
    let hot: HotTables
    private let hotStorage: HotTableStorage

    /// The date of the bundled ISO 4217 currency list (Schemas/gs1/iso4217.txt), e.g.
    /// "2025-06-05": the currencies AIs (391n) and (393n) accept are those current then.
    public static var currencyListDate: String { GS1CodeLists.iso4217Date }

    /// The hot tables of the bundled dictionary (which lives for the whole process).
    static let sharedTables: HotTables = shared.hot

    /// The bundled dictionary, parsed on first use.
    public static let shared: SyntaxDictionary = {
        do {
            return try SyntaxDictionary(text: bundledText)
        } catch {
            // The bundled text is fixed at build time and covered by tests; an empty
            // dictionary makes every AI "unknown" rather than crashing.
            return SyntaxDictionary(definitions: [], release: "invalid: \(error)")
        }
    }()

    /// Parses a dictionary in the Syntax Dictionary format.
    public init(text: String) throws(GS1Error) {
        var definitions: [AIDefinition] = []
        var release = ""
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.hasPrefix("#") {
                if trimmed.hasPrefix("# Release:") { release = trimmed.dropFirst(10).trimmingSpaces() }
                continue
            }
            if trimmed.isEmpty { continue }
            definitions += try Self.parseEntry(String(trimmed), line: lineNumber)
        }
        self.init(definitions: definitions, release: release)
    }

    private init(definitions: [AIDefinition], release: String) {
        var slots = [Int16](repeating: -1, count: 11_100)
        for (index, definition) in definitions.enumerated() {
            if let slot = Self.slot(Array(definition.ai.utf8)[...]) { slots[slot] = Int16(index) }
        }
        self.definitions = definitions
        self.release = release
        self.slots = slots
        self.components = definitions.map(\.components)
        self.aiNames = definitions.map(\.ai)
        self.predefinedLengths = definitions.map { $0.hasPredefinedLength ? $0.maxLength : -1 }
        self.hotStorage = HotTableStorage(definitions: definitions, slots: slots)
        self.hot = hotStorage.tables
    }

    /// The definition of `ai`, or nil when the dictionary does not define it.
    public func definition(_ ai: String) -> AIDefinition? {
        index(Array(ai.utf8)[...]).map { definitions[$0] }
    }

    /// The index of the definition of the AI spelled by `digits` (2 to 4 ASCII digits).
    func index(_ digits: ArraySlice<UInt8>) -> Int? {
        guard let slot = Self.slot(digits) else { return nil }
        let index = slots[slot]
        return index < 0 ? nil : Int(index)
    }

    /// The index of the AI at the start of `bytes` (2, 3 or 4 digits), and its length.
    /// GS1 AIs are prefix-free, so at most one length matches.
    func indexOfAI(at bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (index: Int, length: Int)? {
        var value = 0
        var position = start
        for length in 1...4 {
            guard position < bytes.count else { return nil }
            let digit = Int(bytes[position] &- 0x30)
            guard digit < 10 else { return nil }
            value = value * 10 + digit
            position += 1
            if length >= 2 {
                let base = length == 2 ? 0 : length == 3 ? 100 : 1100
                let index = slots[base + value]
                if index >= 0 { return (Int(index), length) }
            }
        }
        return nil
    }

    /// A flat-table slot for an AI of 2 to 4 digits: 0-99, 100-1099, 1100-11099.
    static func slot(_ digits: ArraySlice<UInt8>) -> Int? {
        guard (2...4).contains(digits.count) else { return nil }
        var value = 0
        for byte in digits {
            let digit = Int(byte) - 0x30
            guard (0...9).contains(digit) else { return nil }
            value = value * 10 + digit
        }
        return (digits.count == 2 ? 0 : digits.count == 3 ? 100 : 1100) + value
    }
}
