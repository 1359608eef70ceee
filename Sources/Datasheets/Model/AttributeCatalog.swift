/// The groups of a datasheet, in the suggested order of inspection, and per attribute its group,
/// names, parent, unit and the inspector's instruction. The data is `Schemas/attributes/`
/// (generated into `AttributeCatalog+Generated.swift`); this file only reads it.
///
/// Terms are GS1 Web Vocabulary v1.16 terms, except the few the vocabulary has no term for (taken
/// from GDSN where it has one). A term the catalogue does not list falls back to the vocabulary's
/// English label, in the group `other`.
public enum AttributeCatalog {
    /// A text in each language the catalogue is written in.
    public struct Names: Sendable, Hashable {
        public var en: String
        public var fi: String
        public var sv: String

        /// A text in each language.
        public init(en: String, fi: String, sv: String) {
            self.en = en
            self.fi = fi
            self.sv = sv
        }

        /// The text in `language`.
        public func callAsFunction(_ language: CatalogueLanguage) -> String {
            switch language {
            case .en: en
            case .fi: fi
            case .sv: sv
            }
        }
    }

    /// One attribute of the catalogue.
    public struct Entry: Sendable, Hashable {
        /// The vocabulary term.
        public var term: String
        /// The group's identifier.
        public var group: String
        /// The attribute whose result rolls up from this one (`hasAllergen` for a containment level).
        public var parent: String?
        /// What the inspector measures it in; nil when it is compared, not measured.
        public var unit: String?
        /// The id of its instruction.
        public var instruction: String
        /// Its display names.
        public var names: Names

        /// Whether the inspector measures it (rather than compares it).
        public var measured: Bool { unit != nil }
    }

    /// One group of related attributes (seed thesis 3.1.4: a sequence number orders inspection).
    public struct Group: Sendable, Hashable {
        /// The sequence number (1 for the first group).
        public var sequenceNumber: Int
        /// The identifier.
        public var identifier: String
        /// Its names.
        public var names: Names
        /// The terms, in inspection order.
        public var terms: [String]

        /// The English name.
        public var name: String { names.en }
    }

    /// The groups with attributes, by sequence number. Terms in no group go to `other`.
    public static let groups: [Group] = allGroups.filter { $0.identifier != "other" }

    /// The group every unlisted term goes to.
    public static let other: Group = allGroups.first { $0.identifier == "other" }!

    /// Every group, `other` last.
    private static let allGroups: [Group] = generatedGroups.enumerated().map { position, group in
        Group(
            sequenceNumber: position + 1, identifier: group.identifier, names: group.names,
            terms: generatedEntries.filter { $0.group == group.identifier }.map(\.term))
    }

    /// Every listed attribute, by term.
    public static let entries: [String: Entry] = Dictionary(
        generatedEntries.map { ($0.term, $0) }, uniquingKeysWith: { first, _ in first })

    /// An attribute's position inside its group (0 for the first).
    public static let orderInGroup: [String: Int] = {
        var order: [String: Int] = [:]
        for group in allGroups {
            for (position, term) in group.terms.enumerated() { order[term] = position }
        }
        return order
    }()

    private static let groupIndexByTerm: [String: Int] = {
        var index: [String: Int] = [:]
        for (position, group) in groups.enumerated() {
            for term in group.terms { index[term] = position }
        }
        return index
    }()

    private static let vocabularyLabels: [String: String] = Dictionary(
        zip(VocabularyTerms.properties, VocabularyTerms.labels).map { ($0, $1) },
        uniquingKeysWith: { first, _ in first })

    /// Every term the catalogue lists.
    public static var terms: Set<String> { Set(entries.keys) }

    /// The group a term belongs to.
    public static func group(of term: some StringProtocol) -> Group {
        groupIndexByTerm[String(term)].map { groups[$0] } ?? other
    }

    /// The group with `identifier`, if any.
    public static func group(identifier: String) -> Group? {
        allGroups.first { $0.identifier == identifier }
    }

    /// The catalogue term a path is about: the member's for a list item's member
    /// (`hasAllergen[AM].allergenLevelOfContainmentCode` → `allergenLevelOfContainmentCode`) when the
    /// catalogue lists it, else the path's own term.
    public static func entryTerm(of path: String) -> String {
        let parts = AttributePath(path)
        if let member = parts.member {
            let memberTerm = String(AttributePath(String(member)).term)
            if entries[memberTerm] != nil { return memberTerm }
        }
        return String(parts.term)
    }

    /// The instruction for a path in `language`; a term the catalogue does not list gets the general one.
    /// With the supplier's `value`, a net quantity's instruction ends with this pack's limits.
    public static func instruction(for path: String, value: String? = nil, in language: CatalogueLanguage) -> String {
        let id = entries[entryTerm(of: path)]?.instruction ?? "check-other"
        let text = (generatedInstructions[id] ?? generatedInstructions["check-other"]!)(language)
        guard id == "measure-net-quantity", let value, let limits = NetQuantityTolerance.limits(of: value, in: language)
        else { return text }
        return text + " " + limits
    }

    /// The name of a term in `language`: the catalogue's, else the vocabulary's English label, else
    /// the term in words.
    public static func name(ofTerm term: String, in language: CatalogueLanguage) -> String {
        if let entry = entries[term] { return entry.names(language) }
        if let label = vocabularyLabels[term] { return label }
        return words(of: term)
    }

    /// A name for a whole path in `language`: `hasAllergen[AM].allergenLevelOfContainmentCode` →
    /// `Containment level AM`, `productName@fi` → `Product name (fi)`.
    public static func name(of path: String, in language: CatalogueLanguage) -> String {
        let parts = AttributePath(path)
        var name = name(ofTerm: entryTerm(of: path), in: language)
        if let key = parts.key { name += " \(key)" }
        if let member = parts.member, entries[String(AttributePath(String(member)).term)] == nil {
            name += " \(member)"
        }
        if let language = parts.language { name += " (\(language))" }
        return name
    }

    /// A human name for a path in English lower case words: `netContent` → `net content`,
    /// `hasAllergen[AM]` → `allergen AM`.
    public static func displayName(of path: String) -> String {
        let parts = AttributePath(path)
        var term = String(parts.term)
        if term.hasPrefix("has") { term.removeFirst(3) }
        var result = words(of: term).lowercased()
        if let key = parts.key { result += " \(key)" }
        if let member = parts.member { result += " \(member)" }
        if let language = parts.language { result += " (\(language))" }
        return result
    }

    /// `netContent` → `Net content`.
    private static func words(of term: String) -> String {
        var words = ""
        for character in term {
            if character.isUppercase, !words.isEmpty { words.append(" ") }
            words.append(words.isEmpty ? Character(character.uppercased()) : Character(character.lowercased()))
        }
        return words
    }
}

/// A language the catalogue's names and instructions are written in.
public enum CatalogueLanguage: String, Sendable, Hashable, CaseIterable, Codable {
    case en, fi, sv

    /// The best of an `Accept-Language` header (`fi-FI, sv;q=0.8, en;q=0.5`): the supported language
    /// with the highest weight, the first listed among equals; English when none is supported.
    public init(acceptLanguage header: String?) {
        var best: (language: CatalogueLanguage, weight: Double)?
        for item in (header ?? "").split(separator: ",") {
            let parts = item.split(separator: ";")
            let tag = (parts.first.map(Self.trimmed) ?? "").lowercased()
            let primary = String(tag.prefix { $0 != "-" && $0 != "_" })
            var weight = 1.0
            for parameter in parts.dropFirst() {
                let pair = Self.trimmed(parameter)
                if pair.hasPrefix("q="), let value = Double(pair.dropFirst(2)) { weight = value }
            }
            guard let language = CatalogueLanguage(rawValue: primary), weight > 0 else { continue }
            if weight > (best?.weight ?? -1) { best = (language, weight) }
        }
        self = best?.language ?? .en
    }

    private static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
