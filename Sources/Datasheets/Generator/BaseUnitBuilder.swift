import GS1
import Seeded

/// Builds the attributes of one generated base unit from a template, consistently: energy from the
/// Annex XIV factors, salt and sodium, saturates within fat, sugars within carbohydrate.
struct BaseUnitBuilder {
    static let annexII = ["AW", "AC", "AE", "AF", "AP", "AY", "AM", "AN", "BC", "BM", "AS", "AU", "NL", "UM"]

    let kind: DatasheetGenerator.Kind
    let serial: UInt64
    var random: SeededRandom
    var attributes: [Attribute] = []
    var gtin = ""
    var netGrams = 0.0

    init(kind: DatasheetGenerator.Kind, serial: UInt64, random: SeededRandom) {
        self.kind = kind
        self.serial = serial
        self.random = random
    }

    mutating func add(_ path: String, _ value: String) {
        attributes.append(Attribute(path: path, value: value))
    }

    mutating func jitter(_ value: Double, _ spread: Double = 0.05) -> Double {
        value * Double.random(in: (1 - spread)...(1 + spread), using: &random)
    }

    mutating func build() {
        let templates: [ProductTemplate] =
            switch kind {
            case .food: ProductTemplate.foods
            case .drink: ProductTemplate.drinks
            case .alcoholicDrink: ProductTemplate.alcoholicDrinks
            case .annexVFood: ProductTemplate.annexVFoods
            }
        let template = templates.randomElement(using: &random) ?? ProductTemplate.foods[0]
        // A Finnish GS1 company prefix (6412345) and a serial item reference.
        let body = "64" + String(String(10_000_000_000 + serial % 10_000_000_000).dropFirst())
        gtin = body + String(GTIN.checkDigit(for: body) ?? 0)
        let net = template.netContents.randomElement(using: &random) ?? "500 GRM"
        let quantity = Quantity(net)
        netGrams = quantity.flatMap { $0.converted(to: $0.dimension == .volume ? "MLT" : "GRM") } ?? 500
        let liquid = quantity?.dimension == .volume
        let brand = ["Pohjola", "Saaristo", "Kultakorvi", "Tunturi"].randomElement(using: &random) ?? "Pohjola"

        add("gtin", gtin)
        add("tradeItemUnitDescriptorCode", "BASE_UNIT_OR_EACH")
        add("isTradeItemAConsumerUnit", "true")
        add("gpcCategoryCode", template.gpc)
        add("targetMarketCountryCode", "246")
        add("productName@en", template.names.en)
        add("productName@fi", template.names.fi)
        add("productName@sv", template.names.sv)
        add("regulatedProductName", template.regulatedName)
        add("brandName", brand)
        add("subBrandName", "\(brand) Classic")
        add("functionalName", template.functionalName)
        add("productDescription", "\(template.names.en) by \(brand), \(net.lowercased())")
        add(
            "variantDescription", ["Original", "Classic", "Organic", "Family pack"].randomElement(using: &random) ?? "")
        add("descriptiveSize", net)
        add("productFormDescription", liquid ? "liquid" : "solid")
        if let ingredients = template.ingredients { add("ingredientStatement", ingredients) }
        if let statement = template.allergenStatement { add("allergenStatement", statement) }
        for code in Self.annexII {
            let level =
                template.contains.contains(code)
                ? "CONTAINS" : (Double.random(in: 0..<1, using: &random) < 0.2 ? "MAY_CONTAIN" : "FREE_FROM")
            add("hasAllergen[\(code)].allergenLevelOfContainmentCode", level)
        }
        if let alcohol = template.alcohol {
            add("percentageOfAlcoholByVolume", DatasheetGenerator.format((jitter(alcohol, 0.02) * 10).rounded() / 10))
        }
        if let annexV = template.annexV { add("annexVExemptionCode", annexV) }
        if let nutrition = template.nutrition { addNutrition(nutrition, liquid: liquid) }
        add("netContent", net)
        if !liquid { add("netWeight", net) }
        add("grossWeight", DatasheetGenerator.format(netGrams * (liquid ? 1.12 : 1.06) + 8) + " GRM")
        add("packagingMarkedEstimatedSign", "true")
        add("inPackageHeight", "\(Int.random(in: 80...300, using: &random)) MMT")
        add("inPackageWidth", "\(Int.random(in: 50...200, using: &random)) MMT")
        add("inPackageDepth", "\(Int.random(in: 30...120, using: &random)) MMT")
        add("packagingLargestSurfaceArea", "\(Int.random(in: 60...600, using: &random)) CMK")
        let month = Int.random(in: 1...12, using: &random)
        let day = Int.random(in: 1...28, using: &random)
        let date = "2027-" + (month < 10 ? "0\(month)" : "\(month)") + "-" + (day < 10 ? "0\(day)" : "\(day)")
        if template.useBy { add("useByDate", date) } else { add("bestBeforeDate", date) }
        add("consumerStorageInstructions", template.storage)
        add("consumerUsageInstructions", liquid ? "Shake before use" : "Ready to eat")
        add("preparationInstructions", "See the package")
        add("countryOfOrigin", "FI")
        add("provenanceStatement", "Made in Finland")
        add("manufacturer", "Pohjolan Elintarvike Oy")
        add("manufacturerAddress", "Teollisuuskatu 1, 00510 Helsinki, Finland")
        add("brandOwner", "Pohjolan Elintarvike Oy")
        add(
            "packagingMarkedLabelAccreditation",
            ["KEY_FLAG", "EU_ORGANIC_FARMING", "NONE"].randomElement(using: &random) ?? "")
        add("packagingMaterialType", liquid ? "GLASS" : "PAPER_PAPERBOARD")
        add("packagingType", liquid ? "BO" : "BX")
        add("dietTypeCode", "NONE")
        add("isPackagingMarkedReturnable", liquid ? "true" : "false")
        add("productMarketingMessage", "A classic from \(brand).")
    }

    private mutating func addNutrition(
        _ nutrition: (
            fat: Double, saturatesShare: Double, carbohydrate: Double, sugarsShare: Double, fibre: Double,
            protein: Double, salt: Double
        ), liquid: Bool
    ) {
        let fat = rounded(jitter(nutrition.fat))
        let saturates = rounded(fat * nutrition.saturatesShare)
        let carbohydrate = rounded(jitter(nutrition.carbohydrate))
        let sugars = rounded(carbohydrate * nutrition.sugarsShare)
        let fibre = rounded(jitter(nutrition.fibre))
        let protein = rounded(jitter(nutrition.protein))
        let salt = rounded(jitter(nutrition.salt))
        let sodium = (salt / 2.5 * 1000).rounded() / 1000
        let kcal = (4 * carbohydrate + 4 * protein + 9 * fat + 2 * fibre).rounded()
        let kilojoules = (kcal * 4.184).rounded()
        let unit = liquid ? "MLT" : "GRM"
        add("nutrientBasisQuantity", "100 \(unit)")
        add("energyPerNutrientBasis", "\(Int(kilojoules)) KJO|\(Int(kcal)) E14")
        add("fatPerNutrientBasis", grams(fat))
        add("saturatedFatPerNutrientBasis", grams(saturates))
        add("monounsaturatedFatPerNutrientBasis", grams(rounded((fat - saturates) * 0.6)))
        add("polyunsaturatedFatPerNutrientBasis", grams(rounded((fat - saturates) * 0.3)))
        add("carbohydratesPerNutrientBasis", grams(carbohydrate))
        add("sugarsPerNutrientBasis", grams(sugars))
        add("fibrePerNutrientBasis", grams(fibre))
        add("proteinPerNutrientBasis", grams(protein))
        add("saltPerNutrientBasis", grams(salt))
        add("sodiumPerNutrientBasis", grams(sodium))
        add("servingSize", liquid ? "200 MLT" : (netGrams >= 100 ? "30 GRM" : "\(Int(netGrams)) GRM"))
        add("numberOfServingsPerPackage", String(Int(max(1, (netGrams / (liquid ? 200 : 30)).rounded(.down)))))
        add("nutritionalClaim", fibre >= 6 ? "HIGH_FIBRE" : "NONE")
    }

    private func rounded(_ value: Double) -> Double { (value * 10).rounded() / 10 }
    private func grams(_ value: Double) -> String { DatasheetGenerator.format(value) + " GRM" }
}
