import AuditService

/// Groups datasheet attributes by the built-in rule set that reads them (identification,
/// nutrition, allergens, …), for the dashboard's failures by attribute group.
struct AttributeGroups: Sendable {
    /// One group's totals.
    struct Group: Sendable {
        var name: String
        var failures: Int
        var warnings: Int
        /// Its most failed attributes (at most three).
        var top: [String]
    }

    /// Attribute path (indices removed) → rule set name.
    let groupOf: [String: String]
    /// Rule set name → its title.
    let titles: [String: String]

    static let shared = AttributeGroups()

    init() {
        var groupOf: [String: String] = [:]
        var titles: [String: String] = [:]
        if let engine = try? RuleBook.engine(subject: nil) {
            for set in engine.ruleSets {
                titles[set.name] = set.title
                for rule in set.rules {
                    for path in [rule.attribute] + rule.reads {
                        let key = Self.normalised(path)
                        if !key.isEmpty, groupOf[key] == nil { groupOf[key] = set.name }
                    }
                }
            }
        }
        self.groupOf = groupOf
        self.titles = titles
    }

    /// What a group covers, for people: its rule set's title.
    func title(of group: String) -> String { titles[group] ?? "attributes no built-in rule reads" }

    /// The group an attribute path belongs to: its rule set, or "other".
    func group(of attribute: String) -> String {
        let key = Self.normalised(attribute)
        if let group = groupOf[key] { return group }
        // A nested path (`nutrientHeader.nutrientDetail…`) belongs where its first part does.
        if let first = key.split(separator: ".").first, let group = groupOf[String(first)] { return group }
        return "other"
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

    /// The path without `[…]` indices and `@lang` suffixes.
    static func normalised(_ path: String) -> String {
        var out = ""
        var depth = 0
        for character in path {
            if character == "[" {
                depth += 1
            } else if character == "]" {
                depth -= 1
            } else if depth == 0 {
                if character == "@" { break }
                out.append(character)
            }
        }
        return out
    }
}
