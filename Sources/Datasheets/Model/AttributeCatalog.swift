/// The groups of a datasheet, in the suggested order of inspection, and which attribute goes where.
///
/// Terms are GS1 Web Vocabulary v1.16 terms, except the few marked *extension* that the vocabulary
/// has no term for (taken from GDSN where it has one).
public enum AttributeCatalog {
    /// One group of related attributes (seed thesis 3.1.4: a sequence number orders inspection).
    public struct Group: Sendable, Hashable {
        /// The sequence number.
        public var sequenceNumber: Int
        /// The identifier.
        public var identifier: String
        /// The name.
        public var name: String
        /// The terms.
        public var terms: [String]
    }

    /// The groups, by sequence number. Attributes whose term is in no group go to `other`.
    public static let groups: [Group] = [
        Group(
            sequenceNumber: 1, identifier: "identification", name: "Identification",
            terms: [
                "gtin", "tradeItemUnitDescriptorCode", "isTradeItemAConsumerUnit", "gpcCategoryCode",
                "childTradeItemGtin", "quantityOfNextLowerLevelTradeItem",
            ]),
        Group(
            sequenceNumber: 2, identifier: "naming", name: "Name and description",
            terms: [
                "productName", "regulatedProductName", "brandName", "subBrandName", "functionalName",
                "productDescription", "variantDescription", "productFormDescription",
            ]),
        Group(
            sequenceNumber: 3, identifier: "ingredients", name: "Ingredients and allergens",
            terms: ["ingredientStatement", "ingredient", "allergenStatement", "hasAllergen"]),
        Group(
            sequenceNumber: 4, identifier: "nutrition", name: "Nutrition",
            terms: [
                "nutrientBasisQuantity", "nutrientBasisQuantityType", "annexVExemptionCode",
                "energyPerNutrientBasis", "fatPerNutrientBasis", "saturatedFatPerNutrientBasis",
                "monounsaturatedFatPerNutrientBasis", "polyunsaturatedFatPerNutrientBasis",
                "carbohydratesPerNutrientBasis", "sugarsPerNutrientBasis", "polyolsPerNutrientBasis",
                "starchPerNutrientBasis", "fibrePerNutrientBasis", "proteinPerNutrientBasis",
                "saltPerNutrientBasis", "sodiumPerNutrientBasis", "servingSize", "numberOfServingsPerPackage",
                "nutritionalClaim", "measured",
            ]),
        Group(
            sequenceNumber: 5, identifier: "alcohol", name: "Alcohol",
            terms: ["percentageOfAlcoholByVolume", "alcoholicBeverageSubregion"]),
        Group(
            sequenceNumber: 6, identifier: "quantity", name: "Quantity and measurements",
            terms: [
                "netContent", "drainedWeight", "netWeight", "grossWeight", "packagingMarkedEstimatedSign",
                "inPackageHeight", "inPackageWidth", "inPackageDepth", "packagingLargestSurfaceArea",
            ]),
        Group(
            sequenceNumber: 7, identifier: "dates", name: "Dates and storage",
            terms: [
                "bestBeforeDate", "useByDate", "expirationDate", "firstFreezeDate", "consumerStorageInstructions",
                "consumerUsageInstructions", "preparationInstructions", "preparationInformation", "instructionsForUse",
            ]),
        Group(
            sequenceNumber: 8, identifier: "origin", name: "Origin and operator",
            terms: [
                "countryOfOrigin", "provenanceStatement", "manufacturer", "manufacturerAddress", "brandOwner",
            ]),
        Group(
            sequenceNumber: 9, identifier: "packaging", name: "Packaging and labels",
            terms: [
                "packagingMarkedLabelAccreditation", "packagingMaterialType", "packagingType", "image",
                "referencedFile",
            ]),
    ]

    /// The group every unknown term goes to.
    public static let other = Group(sequenceNumber: 10, identifier: "other", name: "Other", terms: [])

    private static let groupIndexByTerm: [String: Int] = {
        var index: [String: Int] = [:]
        for (position, group) in groups.enumerated() {
            for term in group.terms { index[term] = position }
        }
        return index
    }()

    /// The group a term belongs to.
    public static func group(of term: some StringProtocol) -> Group {
        groupIndexByTerm[String(term)].map { groups[$0] } ?? other
    }

    /// A human name for a path: `netContent` → `net content`, `hasAllergen[AM]` → `allergen AM`.
    public static func displayName(of path: String) -> String {
        let parts = AttributePath(path)
        var words = ""
        var term = String(parts.term)
        if term.hasPrefix("has") { term.removeFirst(3) }
        for character in term {
            if character.isUppercase, !words.isEmpty { words.append(" ") }
            words.append(character.lowercased())
        }
        if let key = parts.key { words += " \(key)" }
        if let member = parts.member { words += " \(member)" }
        if let language = parts.language { words += " (\(language))" }
        return words
    }
}
