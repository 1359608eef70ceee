/// A group of related fields, inspected in the order of its sequence number.
public struct DataGroup: Sendable, Hashable {
    /// The sequence number.
    public var sequenceNumber: Int
    /// The identifier.
    public var identifier: String
    /// The name.
    public var name: String
    /// The fields.
    public var fields: [DataField]

    /// The group's counts, rolled up from its fields and their subfields.
    public var resultCount: ResultCount {
        var count = ResultCount()
        for field in fields { count.add(field.resultCount) }
        return count
    }
}

/// One field: an attribute (a leaf with a value) or a structure of subfields (an allergen entry).
public struct DataField: Sendable, Hashable {
    /// The attribute path, e.g. `hasAllergen[AM]` or `hasAllergen[AM].allergenLevelOfContainmentCode`.
    public var identifier: String
    /// A human-readable name.
    public var name: String
    /// The value of a leaf; nil for a field made of subfields.
    public var value: String?
    /// The ids of the rules that read this attribute, when known.
    public var rules: [String]
    /// The recorded result of a leaf; a parent's is the rollup of its subfields.
    public var result: Verdict?
    /// The subfields.
    public var subfields: [DataField]

    /// Leaf results counted recursively (a parent counts its leaves, not itself).
    public var resultCount: ResultCount {
        var count = ResultCount()
        if subfields.isEmpty {
            count.add(result)
        } else {
            for subfield in subfields { count.add(subfield.resultCount) }
        }
        return count
    }
}

extension Datasheet {
    /// The structured view: groups in sequence order, fields with subfields for list items.
    ///
    /// `rules` maps an attribute path to the ids of the rules that read it (from a rule set).
    public func groups(rules: [String: [String]] = [:]) -> [DataGroup] {
        var byGroup: [Int: [DataField]] = [:]
        var parentIndex: [String: (group: Int, index: Int)] = [:]
        for attribute in attributes {
            let parts = AttributePath(attribute.path)
            let group = AttributeCatalog.group(of: parts.term)
            let leaf = DataField(
                identifier: attribute.path, name: AttributeCatalog.displayName(of: attribute.path),
                value: attribute.value, rules: rules[attribute.path] ?? rules[String(parts.term)] ?? [],
                result: attribute.result, subfields: [])
            guard parts.key != nil || parts.member != nil else {
                byGroup[group.sequenceNumber, default: []].append(leaf)
                continue
            }
            let parentPath =
                parts.key.map { "\(parts.term)[\($0)]" } ?? String(parts.term)
            if let position = parentIndex[parentPath] {
                byGroup[position.group]?[position.index].subfields.append(leaf)
            } else {
                let parent = DataField(
                    identifier: parentPath, name: AttributeCatalog.displayName(of: parentPath), value: nil,
                    rules: [], result: nil, subfields: [leaf])
                parentIndex[parentPath] = (group.sequenceNumber, byGroup[group.sequenceNumber, default: []].count)
                byGroup[group.sequenceNumber, default: []].append(parent)
            }
        }
        let all = AttributeCatalog.groups + [AttributeCatalog.other]
        return all.compactMap { group in
            guard var fields = byGroup[group.sequenceNumber] else { return nil }
            for index in fields.indices where !fields[index].subfields.isEmpty {
                fields[index].result = fields[index].resultCount.rollup
            }
            return DataGroup(
                sequenceNumber: group.sequenceNumber, identifier: group.identifier, name: group.name, fields: fields)
        }
    }
}
