/// The datasheet of one product: the attributes its supplier declared, each with a result once
/// validated (seed thesis 3.1.4).
///
/// The flat attribute list is what the datasheet *is* (ordered, one entry per path); the structured
/// view (`groups`: groups with sequence numbers, fields with identifier, name, value, subfields and
/// rolled-up results) is computed from it, so both always agree.
public struct Datasheet: Sendable, Hashable, Codable {
    /// The attributes in import order.
    public var attributes: [Attribute]
    /// Where the datasheet was read from, if it came from a file.
    public var source: SourceLocation?

    /// Creates a datasheet from attributes; when a path occurs twice the later value wins.
    public init(attributes: [Attribute], source: SourceLocation? = nil) {
        var seen: [String: Int] = [:]
        var unique: [Attribute] = []
        unique.reserveCapacity(attributes.count)
        for attribute in attributes {
            if let index = seen[attribute.path] {
                unique[index] = attribute
            } else {
                seen[attribute.path] = unique.count
                unique.append(attribute)
            }
        }
        self.attributes = unique
        self.source = source
    }

    /// Creates a datasheet from attributes whose paths are already unique (what the importers make).
    init(uniqueAttributes attributes: [Attribute], source: SourceLocation?) {
        self.attributes = attributes
        self.source = source
    }

    /// Creates a datasheet from the flat view, the form a `DatasheetImported` event carries.
    public init(flat: [(path: String, value: String)], source: SourceLocation? = nil) {
        self.init(attributes: flat.map { Attribute(path: $0.path, value: $0.value) }, source: source)
    }

    /// The flat view: every attribute path with its value, in order.
    public var flat: [(path: String, value: String)] { attributes.map { ($0.path, $0.value) } }

    /// The value at a path, if present.
    public subscript(path: String) -> String? {
        attributes.first(where: { $0.path == path })?.value
    }

    /// The GTIN as declared (not validated), if present.
    public var gtin: String? { self["gtin"] }

    /// Every attribute path, in order.
    public var paths: [String] { attributes.map(\.path) }

    /// Counts of passed, failed, warning, unable and pending attributes over the whole sheet.
    public var resultCount: ResultCount {
        var count = ResultCount()
        for attribute in attributes { count.add(attribute.result) }
        return count
    }
}
