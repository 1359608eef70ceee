import Inspection

/// Flat datasheet attribute lists for generated products: about 70 attributes for a base unit and
/// 15 for a case (seed chapter 4.2.4), named after GS1 Web Vocabulary terms.
///
/// Kept apart from the generator on purpose: it stands in for the Datasheets module's generator
/// until that one is connected, and produces only what `DatasheetImported` carries.
enum GeneratedDatasheets {
    /// Attributes every base unit has, in inspection order (grouped as the seed describes).
    static let baseCore: [String] = [
        "gtin", "productName/fi", "productName/sv", "productName/en", "regulatedProductName/fi",
        "regulatedProductName/sv", "brandName", "subBrandName", "functionalName/fi", "functionalName/sv",
        "productDescription/fi", "productDescription/sv", "manufacturer/name", "manufacturer/gln",
        "countryOfOrigin", "placeOfProductActivity", "gpcCategoryCode", "netContent", "netContent/unitCode",
        "drainedWeight", "grossWeight", "netWeight", "outOfPackageHeight", "outOfPackageWidth", "outOfPackageDepth",
        "packagingMaterial", "packagingType", "packagingRecyclingScheme", "ingredientStatement/fi",
        "ingredientStatement/sv", "allergenStatement/fi", "allergen/milk", "allergen/gluten", "allergen/egg",
        "allergen/nuts", "allergen/soy", "allergen/fish", "allergen/celery", "allergen/mustard", "allergen/sesame",
        "allergen/sulphites", "mayContain", "nutrientBasisQuantity", "nutrient/energyKJ", "nutrient/energyKcal",
        "nutrient/fat", "nutrient/saturatedFat", "nutrient/carbohydrate", "nutrient/sugars", "nutrient/fibre",
        "nutrient/protein", "nutrient/salt", "servingSize", "numberOfServings", "consumerStorageInstructions/fi",
        "consumerStorageInstructions/sv", "consumerUsageInstructions/fi", "minimumLifespanFromProduction",
        "minimumLifespanFromArrival", "bestBeforeDateFormat", "alcoholByVolume", "dietTypeCode", "organicClaim",
        "labelAccreditation", "preparationState", "storageTemperatureMin", "storageTemperatureMax",
        "contactInformation/fi", "productImage/front", "productImage/back", "barcodeType", "barcodeReadable",
    ]

    /// Attributes of a case (or pallet) datasheet.
    static let caseCore: [String] = [
        "gtin", "productName/fi", "brandName", "manufacturer/gln", "childTradeItem/gtin", "childTradeItem/quantity",
        "grossWeight", "outOfPackageHeight", "outOfPackageWidth", "outOfPackageDepth", "packagingType",
        "stackingFactor", "orderableUnit", "despatchUnit", "barcodeType", "barcodeReadable", "palletLayers",
    ]

    /// The datasheet of a product: every core attribute minus a few that do not apply to it.
    static func attributes(for type: ProductType, gtin: String, name: String, using random: inout SeededRandom)
        -> [DatasheetAttribute]
    {
        let core = type == .base ? baseCore : caseCore
        let target = type == .base ? random.int(66...72) : (type == .case ? random.int(14...16) : random.int(11...13))
        var paths = core
        while paths.count > target {
            // Keep the identity attributes at the front; drop optional ones further down.
            paths.remove(at: random.int(3...(paths.count - 1)))
        }
        return paths.map { path in
            DatasheetAttribute(path: path, value: value(for: path, gtin: gtin, name: name, using: &random))
        }
    }

    private static func value(for path: String, gtin: String, name: String, using random: inout SeededRandom) -> String
    {
        switch path {
        case "gtin", "childTradeItem/gtin": return gtin
        case _ where path.hasPrefix("productName"), _ where path.hasPrefix("regulatedProductName"): return name
        case _ where path.hasPrefix("allergen/"): return random.chance(0.2) ? "CONTAINS" : "FREE_FROM"
        case _ where path.hasPrefix("nutrient/"): return "\(random.int(0...900)).\(random.int(0...9))"
        case "netContent", "grossWeight", "netWeight", "drainedWeight": return "\(random.int(50...2000))"
        case "netContent/unitCode": return random.pick(["GRM", "MLT", "KGM", "LTR", "H87"])
        case _ where path.hasPrefix("outOfPackage"): return "\(random.int(20...600)) MMT"
        case "countryOfOrigin": return random.pick(["FI", "FI", "FI", "SE", "DE", "EE", "DK"])
        case "alcoholByVolume": return random.chance(0.05) ? "\(random.int(2...40)).\(random.int(0...9))" : "0"
        default: return "\(path.split(separator: "/").last ?? "value")-\(random.digits(3))"
        }
    }
}
