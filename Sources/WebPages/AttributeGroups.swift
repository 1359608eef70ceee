import AuditService

/// Groups datasheet attributes by the attribute catalogue's groups (identification, nutrition,
/// quantity, …), for the dashboard's failures by attribute group: the same groups the inspector's
/// device and the product pages show.
struct AttributeGroups: Sendable {
    /// One group's totals.
    struct Group: Sendable {
        /// The catalogue group's identifier.
        var name: String
        var failures: Int
        var warnings: Int
        /// Its most failed attributes (at most three).
        var top: [String]
    }

    static let shared = AttributeGroups()

    /// What a group covers, for people: its catalogue name.
    func title(of group: String) -> String { AttributeGrouping.name(ofGroup: group) }

    /// The catalogue group an attribute path belongs to (`other` for a term the catalogue does not list).
    func group(of attribute: String) -> String {
        AttributeGrouping.group(ofPath: attribute)
    }

    /// `counts` summed by group, most failures first.
    func group(_ counts: [AttributeFailureCount]) -> [Group] {
        var groups: [String: Group] = [:]
        for count in counts {
            let name = group(of: count.attribute)
            var group = groups[name] ?? Group(name: name, failures: 0, warnings: 0, top: [])
            group.failures += count.failures
            group.warnings += count.warnings
            if group.top.count < 3, count.failures > 0 { group.top.append(count.attribute) }
            groups[name] = group
        }
        return groups.values.sorted { ($0.failures, $1.name) > ($1.failures, $0.name) }
    }
}
