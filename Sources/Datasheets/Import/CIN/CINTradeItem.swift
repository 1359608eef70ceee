/// What one GDSN `tradeItem` element says, gathered while it streams past, then turned into the
/// attributes of one datasheet (the mapping docs/gdsn-cin-mapping.md describes).
struct CINTradeItem {
    /// One `nutrientHeader`: its basis and its nutrients in order.
    struct NutrientHeader {
        var preparationState: String?
        var basis: String?
        /// Pools often give the basis as `servingSize` alone (100 g on the per-100 g header).
        var servingSize: String?
        /// The quantity the values are for: the basis, else the serving size.
        var effectiveBasis: String? { basis ?? servingSize }
        var nutrients: [(code: String, quantities: [String], precision: String?)] = []
    }

    /// The line the `tradeItem` element starts on.
    var line: Int
    /// The document command the item came in (ADD, CHANGE_BY_REFRESH, CORRECT, DELETE).
    var command: String?
    /// Attributes in the order first seen; a path given twice joins its values with `|`.
    private(set) var paths: [String] = []
    /// The value of each of `paths`, at the same index.
    private var pathValues: [String] = []
    /// Where each path is in `paths`.
    private var pathIndex: [String: Int] = [:]
    /// Names for productName by language: tradeItemDescription, descriptionShort, functionalName.
    var names: [String: (description: String?, short: String?, functional: String?)] = [:]
    var headers: [NutrientHeader] = []
    /// The next lower level: each child's GTIN and how many of it.
    var children: [(gtin: String, quantity: String)] = []
    /// Element names (and nutrient codes) with no vocabulary term yet, named in one import issue.
    var unmapped: [String] = []

    init(line: Int, command: String?) {
        self.line = line
        self.command = command
        // A generated or pooled food item carries about a hundred paths: grown once, not five times.
        paths.reserveCapacity(96)
        pathValues.reserveCapacity(96)
        pathIndex.reserveCapacity(96)
    }

    /// The value at a path, if any.
    func value(_ path: String) -> String? { pathIndex[path].map { pathValues[$0] } }

    /// Adds (or joins) a value at a path.
    mutating func add(_ path: String, _ value: String) {
        // One lookup: a new path takes the next index.
        let index = Self.index(&pathIndex[path, default: -1], next: paths.count)
        if index == paths.count {
            paths.append(path)
            pathValues.append(value)
        } else if !pathValues[index].split(separator: "|").contains(Substring(value)) {
            pathValues[index] += "|" + value
        }
    }

    private static func index(_ slot: inout Int, next: Int) -> Int {
        if slot < 0 { slot = next }
        return slot
    }

    /// GS1 T4073 nutrient type codes and the vocabulary's per-basis terms.
    static let nutrientTerms: [String: String] = [
        "ENER-": "energyPerNutrientBasis", "FAT": "fatPerNutrientBasis", "FASAT": "saturatedFatPerNutrientBasis",
        "FAMSCIS": "monounsaturatedFatPerNutrientBasis", "FAPUCIS": "polyunsaturatedFatPerNutrientBasis",
        "FATRN": "transFatPerNutrientBasis", "CHOAVL": "carbohydratesPerNutrientBasis",
        "SUGAR-": "sugarsPerNutrientBasis", "SUGAR": "sugarsPerNutrientBasis", "POLYL": "polyolsPerNutrientBasis",
        "STARCH": "starchPerNutrientBasis", "FIBTG": "fibrePerNutrientBasis", "PRO-": "proteinPerNutrientBasis",
        "SALTEQ": "saltPerNutrientBasis", "NA": "sodiumPerNutrientBasis", "CHOL-": "cholesterolPerNutrientBasis",
        "CA": "calciumPerNutrientBasis", "FE": "ironPerNutrientBasis", "K": "potassiumPerNutrientBasis",
        "MG": "magnesiumPerNutrientBasis", "VITC-": "vitaminCPerNutrientBasis", "VITD-": "vitaminDPerNutrientBasis",
    ]

    /// The header today's rules read: per 100 g or 100 ml as sold (not prepared), else the first.
    var primaryHeaderIndex: Int? {
        guard !headers.isEmpty else { return nil }
        return headers.firstIndex { header in
            let basis = header.effectiveBasis ?? ""
            return (basis == "100 GRM" || basis == "100 MLT" || basis == "100.0 GRM" || basis == "100.0 MLT")
                && header.preparationState != "PREPARED"
        } ?? 0
    }

    /// The flat attributes of the datasheet, in a stable order. Consuming, and reading only
    /// `item` below, so the item's paths and values grow in place rather than being copied.
    consuming func attributes() -> [Attribute] {
        var item = self
        // productName: the full description wins (what the consumer reads on the pack), then the
        // short POS description (abbreviated but specific), then the functional name (a category).
        for (language, name) in item.names.sorted(by: { $0.key < $1.key }) {
            let suffix = language.isEmpty ? "" : "@" + language
            if let chosen = name.description ?? name.short ?? name.functional { item.add("productName" + suffix, chosen) }
            if let short = name.short { item.add("descriptionShort" + suffix, short) }
            if let functional = name.functional { item.add("functionalName" + suffix, functional) }
        }
        for child in item.children {
            item.add("childTradeItem[\(child.gtin)].quantityOfNextLowerLevelTradeItem", child.quantity)
        }
        // One child also in the one-child form today's rules (GS1-011, GS1-012) and products read.
        if item.children.count == 1 {
            item.add("childTradeItemGtin", item.children[0].gtin)
            item.add("quantityOfNextLowerLevelTradeItem", item.children[0].quantity)
        }
        if let primary = item.primaryHeaderIndex {
            for (index, header) in item.headers.enumerated() {
                let prefix = index == primary ? "" : "nutrientHeader[\(index + 1)]."
                if let basis = header.effectiveBasis { item.add(prefix + "nutrientBasisQuantity", basis) }
                // On the further bases the serving size is their own; on the primary it is the basis.
                if index != primary, let serving = header.servingSize { item.add(prefix + "servingSize", serving) }
                if let state = header.preparationState { item.add(prefix + "preparationStateCode", state) }
                for nutrient in header.nutrients {
                    guard let term = Self.nutrientTerms[nutrient.code] else { continue }
                    for quantity in nutrient.quantities { item.add(prefix + term, quantity) }
                    if let precision = nutrient.precision, precision != "APPROXIMATELY" {
                        item.add(prefix + "measurementPrecisionCode[\(term)]", precision)
                    }
                }
            }
        }
        return zip(item.paths, item.pathValues).map { Attribute(path: $0, value: $1) }
    }
}
