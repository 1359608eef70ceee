import Datasheets
import Inspection

/// A task's datasheet as the inspection view needs it: the supplier's values to compare the pack
/// with, grouped and ordered as the attribute catalogue says, named and explained in the client's
/// language, with the verdicts recorded so far.
public struct DeviceDatasheet: Sendable, Hashable, Codable {
    /// Verdicts of a group's attributes so far, by the seed's verdict codes, and how many have none.
    public struct VerdictCounts: Sendable, Hashable, Codable {
        public var unableToValidate = 0
        public var passed = 0
        public var warning = 0
        public var failure = 0
        public var open = 0

        mutating func add(_ verdict: Int?) {
            switch verdict {
            case 0: unableToValidate += 1
            case 1: passed += 1
            case 2: warning += 1
            case 3: failure += 1
            default: open += 1
            }
        }
    }

    /// One catalogue group that has attributes in this datasheet.
    public struct Group: Sendable, Hashable, Codable {
        public var id: String
        public var name: String
        /// 1 for the group to inspect first.
        public var order: Int
        /// Its attributes that carry a value (a parent made of its children is not counted).
        public var attributeCount: Int
        public var verdictCounts: VerdictCounts
    }

    public struct Attribute: Sendable, Hashable, Codable {
        public var path: String
        /// The display name in the answer's language.
        public var name: String
        /// The catalogue group's id.
        public var group: String
        /// The position inside the group (1 first).
        public var order: Int
        /// The path of the attribute this one rolls up into (`hasAllergen[AM]`).
        public var parent: String?
        /// The supplier's value as written (codes as codes); empty for a parent made of its children.
        public var value: String
        /// The unit the inspector measures in, for a measured attribute.
        public var unit: String?
        /// The value in words, for a code or a quantity (`CONTAINS` → `contains`, `500 GRM` → `500 g`).
        public var valueLabel: String?
        /// What to compare or measure, and the tolerance, in the answer's language.
        public var instruction: String
        /// Whether the inspector measures it (rather than compares it).
        public var measured: Bool
        /// 0–3 when recorded in the open inspection; a parent's rolls up from its children.
        public var verdict: Int?
        /// What the inspector measured or read, when recorded.
        public var measuredValue: String?
        /// The inspector's note, when recorded.
        public var note: String?
    }

    public var taskID: String
    public var gtin: String
    public var datasheetID: String?
    public var inspectionStatus: Int?
    /// The language of names and instructions (`en`, `fi` or `sv`).
    public var language: String
    /// The net content with its unit (`500 g`).
    public var packageSize: String?
    public var groups: [Group]
    public var attributes: [Attribute]
}

/// A product's current datasheet as the product answer and page show it: grouped and named as an
/// inspector's task shows it.
public struct ProductDatasheet: Sendable, Hashable, Codable {
    public var gtin: String
    public var datasheetID: String?
    public var language: String
    public var packageSize: String?
    public var groups: [DeviceDatasheet.Group]
    public var attributes: [DeviceDatasheet.Attribute]
}

extension AuditService {
    /// The inspector owning a task, and its datasheet view in `language`; nil when there is no such task.
    public func deviceDatasheet(taskID: String, language: CatalogueLanguage = .en)
        -> (inspectorID: String, datasheet: DeviceDatasheet)?
    {
        guard let task = state.tasks[taskID] else { return nil }
        let product = state.products[task.gtin]
        let (groups, attributes) = Self.grouped(product, task: task, language: language)
        return (
            task.inspectorID,
            DeviceDatasheet(
                taskID: task.id, gtin: task.gtin, datasheetID: product?.datasheetID,
                inspectionStatus: task.inspectionStatus?.rawValue, language: language.rawValue,
                packageSize: product.flatMap(Self.packageSize(of:)), groups: groups, attributes: attributes)
        )
    }

    /// The current datasheet of a product grouped as a task's is, without verdicts; nil for no
    /// such product.
    public func productDatasheet(gtin: String, language: CatalogueLanguage = .en) -> ProductDatasheet? {
        guard let product = state.products[gtin] else { return nil }
        let (groups, attributes) = Self.grouped(product, task: nil, language: language)
        return ProductDatasheet(
            gtin: gtin, datasheetID: product.datasheetID, language: language.rawValue,
            packageSize: Self.packageSize(of: product), groups: groups, attributes: attributes)
    }

    /// A datasheet's attributes in catalogue order with their groups; with a task, its verdicts.
    static func grouped(_ product: InspectionState.Product?, task: InspectionState.Task?, language: CatalogueLanguage)
        -> (groups: [DeviceDatasheet.Group], attributes: [DeviceDatasheet.Attribute])
    {
        let paths = product?.attributePaths ?? []
        let values = product?.attributeValues ?? []
        var leaves: [(attribute: DeviceDatasheet.Attribute, position: Int)] = []
        for (position, path) in paths.enumerated() {
            let value = position < values.count ? values[position] : ""
            leaves.append((Self.datasheetAttribute(path: path, value: value, task: task, language: language), position))
        }
        // A list item's members roll up into the item (`hasAllergen[AM]`), shown before them.
        var parents: [String: DeviceDatasheet.Attribute] = [:]
        var parentPosition: [String: Int] = [:]
        for (attribute, position) in leaves {
            guard let parentPath = attribute.parent, !paths.contains(parentPath) else { continue }
            if parents[parentPath] == nil {
                parents[parentPath] = Self.datasheetAttribute(
                    path: parentPath, value: "", task: task, language: language)
                parents[parentPath]?.parent = nil
                parentPosition[parentPath] = position
            }
        }
        for (path, _) in parents {
            let children = leaves.filter { $0.attribute.parent == path }.map(\.attribute.verdict)
            parents[path]?.verdict = Self.rollUp(children)
        }
        let groupRank = Dictionary(
            AttributeGrouping.order.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        // A list item's members stay together, after their item, in the item's first datasheet position.
        var itemPosition: [String: Int] = [:]
        for (position, path) in paths.enumerated() where itemPosition[Self.item(of: path)] == nil {
            itemPosition[Self.item(of: path)] = position
        }
        var all = leaves.map { (attribute: $0.attribute, position: $0.position, isParent: false) }
        all += parents.map { (attribute: $1, position: parentPosition[$0] ?? 0, isParent: true) }
        func sortKey(_ entry: (attribute: DeviceDatasheet.Attribute, position: Int, isParent: Bool)) -> [Int] {
            let parts = AttributePath(entry.attribute.path)
            return [
                groupRank[entry.attribute.group] ?? .max, AttributeCatalog.orderInGroup[String(parts.term)] ?? .max,
                itemPosition[Self.item(of: entry.attribute.path)] ?? entry.position, entry.isParent ? 0 : 1,
                AttributeCatalog.orderInGroup[AttributeCatalog.entryTerm(of: entry.attribute.path)] ?? .max,
                entry.position,
            ]
        }
        all.sort { sortKey($0).lexicographicallyPrecedes(sortKey($1)) }
        var attributes = all.map(\.attribute)
        // Positions inside a group count from 1, in the order shown.
        var groups: [DeviceDatasheet.Group] = []
        var shownInGroup: [String: Int] = [:]
        for index in attributes.indices {
            let groupID = attributes[index].group
            if groups.last?.id != groupID {
                groups.append(
                    DeviceDatasheet.Group(
                        id: groupID, name: AttributeCatalog.group(identifier: groupID)?.names(language) ?? groupID,
                        order: (groupRank[groupID] ?? groups.count) + 1, attributeCount: 0,
                        verdictCounts: DeviceDatasheet.VerdictCounts()))
            }
            let last = groups.count - 1
            shownInGroup[groupID, default: 0] += 1
            attributes[index].order = shownInGroup[groupID]!
            if !all[index].isParent {
                groups[last].attributeCount += 1
                groups[last].verdictCounts.add(attributes[index].verdict)
            }
        }
        return (groups, attributes)
    }

    private static func datasheetAttribute(
        path: String, value: String, task: InspectionState.Task?, language: CatalogueLanguage
    ) -> DeviceDatasheet.Attribute {
        let parts = AttributePath(path)
        let term = AttributeCatalog.entryTerm(of: path)
        let entry = AttributeCatalog.entries[term]
        let group = AttributeCatalog.group(of: parts.term)
        var parent: String?
        if let key = parts.key, parts.member != nil {
            parent = "\(parts.term)[\(key)]"
        } else if let parentTerm = entry?.parent, parentTerm != String(parts.term) {
            parent = parentTerm
        }
        return DeviceDatasheet.Attribute(
            path: path, name: AttributeCatalog.name(of: path, in: language), group: group.identifier,
            order: 0,
            parent: parent, value: value, unit: entry?.unit, valueLabel: ValueLabels.label(of: value, in: language),
            instruction: AttributeCatalog.instruction(for: path, value: value, in: language),
            measured: entry?.measured ?? false,
            verdict: task?.verdicts[path]?.rawValue, measuredValue: task?.verdictDetails[path]?.measuredValue,
            note: task?.verdictDetails[path]?.note)
    }

    /// The list item a path belongs to (`hasAllergen[AM]` for its members), or the path itself.
    static func item(of path: String) -> String {
        let parts = AttributePath(path)
        return parts.key.map { "\(parts.term)[\($0)]" } ?? path
    }

    /// A parent's verdict from its children's: the worst when all have one, else none yet.
    static func rollUp(_ children: [Int?]) -> Int? {
        guard !children.isEmpty, children.allSatisfy({ $0 != nil }) else { return nil }
        let verdicts = children.compactMap { $0 }
        if verdicts.contains(3) { return 3 }
        if verdicts.contains(2) { return 2 }
        if verdicts.contains(0) { return 0 }
        return 1
    }

    /// The product's net content in words (`500 GRM` → `500 g`), from its latest datasheet.
    static func packageSize(of product: InspectionState.Product) -> String? {
        guard let index = product.attributePaths.firstIndex(of: "netContent"),
            index < product.attributeValues.count
        else { return nil }
        let value = product.attributeValues[index]
        return ValueLabels.label(of: value, in: .en) ?? value
    }
}
