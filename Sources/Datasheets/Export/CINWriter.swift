/// Writes datasheets as a GDSN Catalogue Item Notification (BMS 3.1 XML) in the element structure
/// `CINImporter` reads (docs/gdsn-cin-mapping.md, "Writing"): a namespaced
/// `catalogueItemNotificationMessage` with a standard business document header, then one
/// `transaction / documentCommand (ADD) / catalogueItemNotification / catalogueItem / tradeItem`
/// per datasheet, its attributes in the extension modules the mapping names.
///
/// The writer is the importer's inverse for the mapped attributes: importing what it writes gives
/// every attribute back with the same value, plus what the importer derives (a `productName` from a
/// functional or short name, the list form of a single child). Attributes the importer could not
/// read back (a term with no vocabulary entry, an empty value, a nested member it has no element
/// for) are not written and are named in `Transaction.notWritten`, so nothing is dropped silently.
///
/// ```swift
/// var xml = CINWriter.header
/// for sheet in sheets { xml += CINWriter.transaction(sheet, number: 1).xml }
/// xml += CINWriter.footer
/// ```
public enum CINWriter {
    /// One datasheet as a `transaction` element, and what of it could not be written.
    public struct Transaction: Sendable {
        /// The `transaction` element, ending with a newline.
        public var xml: String
        /// Each attribute left out or changed, with why ("path: reason").
        public var notWritten: [String]
    }

    /// The XML declaration, the message's root start tag and its standard business document header.
    public static let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <catalogue_item_notification:catalogueItemNotificationMessage \
        xmlns:catalogue_item_notification="urn:gs1:gdsn:catalogue_item_notification:xsd:3" \
        xmlns:sh="http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader">
        <sh:StandardBusinessDocumentHeader><sh:HeaderVersion>1.0</sh:HeaderVersion>\
        <sh:DocumentIdentification><sh:Standard>GS1</sh:Standard><sh:TypeVersion>3.1</sh:TypeVersion>\
        <sh:Type>catalogueItemNotification</sh:Type></sh:DocumentIdentification></sh:StandardBusinessDocumentHeader>

        """

    /// The root end tag.
    public static let footer = "</catalogue_item_notification:catalogueItemNotificationMessage>\n"

    /// A whole message holding `datasheets`, and what of them could not be written.
    public static func document(_ datasheets: [Datasheet]) -> Transaction {
        var out = header
        var notWritten: [String] = []
        for (index, sheet) in datasheets.enumerated() {
            let transaction = transaction(sheet, number: index + 1)
            out += transaction.xml
            notWritten += transaction.notWritten.map { "\(sheet.gtin ?? "datasheet \(index + 1)"): \($0)" }
        }
        return Transaction(xml: out + footer, notWritten: notWritten)
    }

    /// The extension modules, in the order written: element, namespace prefix and URN, the
    /// wrapper element inside it (if any), and the top-level terms it holds.
    static let modules:
        [(name: String, prefix: String, urn: String, wrapper: String?, terms: Set<String>)] = [
            (
                "allergenInformationModule", "ai", "allergen_information", "allergenRelatedInformation",
                ["allergenStatement"]
            ),
            ("alcoholInformationModule", "al", "alcohol_information", "alcoholInformation", ["percentageOfAlcoholByVolume"]),
            ("foodAndBeverageIngredientModule", "fb", "food_and_beverage_ingredient", nil, ["ingredientStatement"]),
            (
                "nutritionalInformationModule", "ni", "nutritional_information", nil,
                ["servingSize", "numberOfServingsPerPackage", "nutritionalClaim"]
            ),
            ("packagingMarkingModule", "pm", "packaging_marking", "packagingMarking", ["isPackagingMarkedReturnable"]),
            ("placeOfItemActivityModule", "pa", "place_of_item_activity", "placeOfItemActivityInformation", ["provenanceStatement"]),
            (
                "consumerInstructionsModule", "ci", "consumer_instructions", "consumerInstructions",
                ["consumerStorageInstructions", "consumerUsageInstructions"]
            ),
            (
                "tradeItemDescriptionModule", "td", "trade_item_description", "tradeItemDescriptionInformation",
                ["regulatedProductName", "productDescription", "descriptiveSize"]
            ),
            (
                "tradeItemMeasurementsModule", "tm", "trade_item_measurements", "tradeItemMeasurements",
                ["netContent", "netWeight"]
            ),
        ]

    /// Vocabulary term of each T4073 nutrient code, reversed (the hyphenated code where GS1 has both).
    static let nutrientCodes: [String: String] = {
        var codes: [String: String] = [:]
        for (code, term) in CINTradeItem.nutrientTerms where codes[term] == nil || code.hasSuffix("-") {
            codes[term] = code
        }
        return codes
    }()

    /// One datasheet as a `transaction` with an ADD command; `number` identifies the command.
    public static func transaction(_ sheet: Datasheet, number: Int) -> Transaction {
        var item = ItemParts()
        var notWritten: [String] = []
        for attribute in sheet.attributes {
            if let reason = item.place(attribute) { notWritten.append("\(attribute.path): \(reason)") }
        }
        var xml = XMLText()
        xml.raw("<transaction><documentCommand><documentCommandHeader type=\"ADD\"><documentCommandIdentification>")
        xml.raw("<entityIdentification>\(number)</entityIdentification></documentCommandIdentification>")
        xml.raw("</documentCommandHeader>\n<catalogue_item_notification:catalogueItemNotification><catalogueItem><tradeItem>\n")
        item.write(to: &xml)
        xml.raw("</tradeItem></catalogueItem></catalogue_item_notification:catalogueItemNotification>")
        xml.raw("</documentCommand></transaction>\n")
        for path in xml.replaced { notWritten.append("\(path): characters XML 1.0 cannot hold replaced by U+FFFD") }
        return Transaction(xml: xml.text, notWritten: notWritten)
    }
}

/// The attributes of one datasheet sorted into the places of a `tradeItem` element.
struct ItemParts {
    typealias Leaf = (element: String, path: String, value: String, language: String?)

    var gtin: Attribute?
    /// Direct children of `tradeItem` (terms no module holds).
    var direct: [Leaf] = []
    /// Leaves of each module, by its index in `CINWriter.modules`.
    var moduleLeaves: [[Leaf]] = Array(repeating: [], count: CINWriter.modules.count)
    /// Names by language: tradeItemDescription (productName), descriptionShort, functionalName.
    var names: [Leaf] = []
    var brand: [Leaf] = []
    var measurements: [Leaf] = []
    var grossWeight: Attribute?
    var manufacturerName: Attribute?
    var brandOwnerName: Attribute?
    var countryOfOrigin: Attribute?
    var allergens: [(code: String, level: Attribute)] = []
    var children: [(gtin: String, quantity: Attribute)] = []
    var oneChild: (gtin: Attribute?, quantity: Attribute?) = (nil, nil)
    var childCounts: [Attribute] = []
    /// Nutrient headers by position (0: the primary, whose paths carry no prefix).
    var headers: [Int: HeaderParts] = [:]

    struct HeaderParts {
        var basis: Attribute?
        var servingSize: Attribute?
        var preparationState: Attribute?
        var nutrients: [(code: String, values: Attribute, precision: Attribute?)] = []
        var precisions: [String: Attribute] = [:]
    }

    /// Sorts one attribute into its place; returns why it cannot be written, if it cannot.
    mutating func place(_ attribute: Attribute) -> String? {
        guard !attribute.value.isEmpty else { return "empty values are not written (the importer skips empty elements)" }
        if let reason = placeStructured(attribute) { return reason }
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        if let first = attribute.value.first, let last = attribute.value.last, isSpace(first) || isSpace(last) {
            return "written, but leading and trailing white space does not survive XML reading"
        }
        return nil
    }

    /// Sorts a non-empty attribute by its path.
    private mutating func placeStructured(_ attribute: Attribute) -> String? {
        let path = AttributePath(attribute.path)
        let term = String(path.term)
        let language = path.language.map(String.init)
        if let key = path.key {
            switch (term, path.member, language) {
            case ("hasAllergen", "allergenLevelOfContainmentCode", nil):
                allergens.append((String(key), attribute))
                return nil
            case ("childTradeItem", "quantityOfNextLowerLevelTradeItem", nil):
                children.append((String(key), attribute))
                return nil
            case ("measurementPrecisionCode", nil, nil):
                headers[0, default: HeaderParts()].precisions[String(key)] = attribute
                return nil
            case ("nutrientHeader", let member?, nil):
                guard let position = Int(key), position >= 1 else { return "nutrient header position is not a number" }
                return placeNutrient(attribute, member: String(member), header: position)
            default:
                return "no CIN element for this list member"
            }
        }
        if let member = path.member {
            switch (term, member, language) {
            case ("manufacturer", "organizationName", nil): manufacturerName = attribute
            case ("brandOwner", "organizationName", nil): brandOwnerName = attribute
            default: return "no CIN element for this nested member"
            }
            return nil
        }
        switch (term, language) {
        case ("gtin", nil): gtin = attribute
        case ("productName", _): names.append(("tradeItemDescription", attribute.path, attribute.value, language))
        case ("descriptionShort", _), ("functionalName", _):
            names.append((term, attribute.path, attribute.value, language))
        case ("brandName", nil), ("subBrandName", nil): brand.append((term, attribute.path, attribute.value, nil))
        case ("inPackageDepth", nil): measurements.append(("depth", attribute.path, attribute.value, nil))
        case ("inPackageHeight", nil): measurements.append(("height", attribute.path, attribute.value, nil))
        case ("inPackageWidth", nil): measurements.append(("width", attribute.path, attribute.value, nil))
        case ("grossWeight", nil): grossWeight = attribute
        case ("countryOfOrigin", nil): countryOfOrigin = attribute
        case ("childTradeItemGtin", nil): oneChild.gtin = attribute
        case ("quantityOfNextLowerLevelTradeItem", nil): oneChild.quantity = attribute
        case ("quantityOfChildren", nil), ("totalQuantityOfNextLowerLevelTradeItem", nil): childCounts.append(attribute)
        case ("nutrientBasisQuantity", nil), ("preparationStateCode", nil):
            return placeNutrient(attribute, member: term, header: 0)
        case (_, nil) where CINWriter.nutrientCodes[term] != nil:
            return placeNutrient(attribute, member: term, header: 0)
        default:
            guard VocabularyTerms.known.contains(term) else {
                return "no GS1 Web Vocabulary term, the importer would not read it back"
            }
            // The importer reads these names by their parent; elsewhere they mean something else.
            guard !["tradeItemDescription", "countryCode", "partyName"].contains(term) else {
                return "no CIN element for this term outside its parent"
            }
            let leaf: Leaf = (term, attribute.path, attribute.value, language)
            if let index = CINWriter.modules.firstIndex(where: { $0.terms.contains(term) }) {
                moduleLeaves[index].append(leaf)
            } else {
                direct.append(leaf)
            }
        }
        return nil
    }

    /// Places a member of a nutrient header (0: the primary).
    mutating func placeNutrient(_ attribute: Attribute, member: String, header position: Int) -> String? {
        var header = headers[position, default: HeaderParts()]
        defer { headers[position] = header }
        switch member {
        case "nutrientBasisQuantity": header.basis = attribute
        case "servingSize" where position > 0: header.servingSize = attribute
        case "preparationStateCode": header.preparationState = attribute
        default:
            if member.hasPrefix("measurementPrecisionCode["), member.hasSuffix("]") {
                header.precisions[String(member.dropFirst("measurementPrecisionCode[".count).dropLast())] = attribute
                return nil
            }
            guard let code = CINWriter.nutrientCodes[member] else {
                return "no T4073 nutrient code for this term in a further nutrient header"
            }
            header.nutrients.append((code, attribute, nil))
        }
        return nil
    }

    /// Writes the `tradeItem` element's content.
    func write(to xml: inout XMLText) {
        if let gtin { xml.leaf("gtin", gtin.value, path: gtin.path) }
        for leaf in direct { xml.leaf(leaf) }
        if let manufacturerName {
            xml.raw("<manufacturerOfTradeItem>")
            xml.leaf("partyName", manufacturerName.value, path: manufacturerName.path)
            xml.raw("</manufacturerOfTradeItem>\n")
        }
        if let brandOwnerName {
            xml.raw("<brandOwner>")
            xml.leaf("partyName", brandOwnerName.value, path: brandOwnerName.path)
            xml.raw("</brandOwner>\n")
        }
        writeChildren(to: &xml)
        xml.raw("<tradeItemInformation><extension>\n")
        for (index, module) in CINWriter.modules.enumerated() {
            let extra = extraContent(of: module.name)
            guard !moduleLeaves[index].isEmpty || extra != nil else { continue }
            xml.raw("<\(module.prefix):\(module.name) xmlns:\(module.prefix)=\"urn:gs1:gdsn:\(module.urn):xsd:3\">")
            if let wrapper = module.wrapper { xml.raw("<\(wrapper)>") }
            for leaf in moduleLeaves[index] { xml.leaf(leaf) }
            extra?(&xml)
            if let wrapper = module.wrapper { xml.raw("</\(wrapper)>") }
            xml.raw("</\(module.prefix):\(module.name)>\n")
        }
        xml.raw("</extension></tradeItemInformation>\n")
    }

    /// What a module holds besides its plain leaves, if it holds anything.
    func extraContent(of module: String) -> ((inout XMLText) -> Void)? {
        switch module {
        case "allergenInformationModule" where !allergens.isEmpty:
            return { xml in
                for (code, level) in allergens {
                    xml.raw("<allergen>")
                    xml.leaf("allergenTypeCode", code, path: level.path)
                    xml.leaf("levelOfContainmentCode", level.value, path: level.path)
                    xml.raw("</allergen>")
                }
            }
        case "nutritionalInformationModule" where !headers.isEmpty:
            return { xml in writeHeaders(to: &xml) }
        case "placeOfItemActivityModule" where countryOfOrigin != nil:
            return { xml in
                guard let countryOfOrigin else { return }
                xml.raw("<countryOfOrigin>")
                xml.leaf("countryCode", countryOfOrigin.value, path: countryOfOrigin.path)
                xml.raw("</countryOfOrigin>")
            }
        case "tradeItemDescriptionModule" where !names.isEmpty || !brand.isEmpty:
            return { xml in
                for leaf in names { xml.leaf(leaf) }
                if !brand.isEmpty {
                    xml.raw("<brandNameInformation>")
                    for leaf in brand { xml.leaf(leaf) }
                    xml.raw("</brandNameInformation>")
                }
            }
        case "tradeItemMeasurementsModule" where !measurements.isEmpty || grossWeight != nil:
            return { xml in
                for leaf in measurements { xml.leaf(leaf) }
                if let grossWeight {
                    xml.raw("<tradeItemWeight>")
                    xml.quantityLeaf("grossWeight", grossWeight.value, path: grossWeight.path)
                    xml.raw("</tradeItemWeight>")
                }
            }
        default:
            return nil
        }
    }

    /// `nextLowerLevelTradeItemInformation`: the listed children, else the one-child form.
    func writeChildren(to xml: inout XMLText) {
        var listed = children.map { (gtin: $0.gtin, path: $0.quantity.path, quantity: $0.quantity.value) }
        var oneChildLeft: [Attribute] = []
        if let gtin = oneChild.gtin {
            if listed.isEmpty {
                listed = [(gtin.value, oneChild.quantity?.path ?? gtin.path, oneChild.quantity?.value ?? "1")]
            } else if !listed.contains(where: { $0.gtin == gtin.value }) {
                oneChildLeft = [gtin] + (oneChild.quantity.map { [$0] } ?? [])
            }
        } else if let quantity = oneChild.quantity {
            oneChildLeft = [quantity]
        }
        guard !listed.isEmpty || !childCounts.isEmpty || !oneChildLeft.isEmpty else { return }
        xml.raw("<nextLowerLevelTradeItemInformation>")
        for attribute in childCounts + oneChildLeft {
            xml.leaf(AttributePath(attribute.path).term.description, attribute.value, path: attribute.path)
        }
        for child in listed {
            xml.raw("<childTradeItem>")
            xml.leaf("gtin", child.gtin, path: child.path)
            xml.leaf("quantityOfNextLowerLevelTradeItem", child.quantity, path: child.path)
            xml.raw("</childTradeItem>")
        }
        xml.raw("</nextLowerLevelTradeItemInformation>\n")
    }

    /// The nutrient headers in their positions: further headers keep theirs (`nutrientHeader[N]`
    /// is the N-th in the file), the primary takes the first free one.
    func writeHeaders(to xml: inout XMLText) {
        let further = headers.keys.filter { $0 > 0 }.sorted()
        var primaryPosition = 1
        while further.contains(primaryPosition) { primaryPosition += 1 }
        var order = further
        if headers[0] != nil { order.append(primaryPosition) }
        for position in order.sorted() {
            guard let header = headers[position == primaryPosition ? 0 : position] else { continue }
            xml.raw("<nutrientHeader>")
            if let state = header.preparationState { xml.leaf("preparationStateCode", state.value, path: state.path) }
            if let basis = header.basis { xml.quantityLeaf("nutrientBasisQuantity", basis.value, path: basis.path) }
            if let serving = header.servingSize { xml.quantityLeaf("servingSize", serving.value, path: serving.path) }
            for nutrient in header.nutrients {
                xml.raw("<nutrientDetail>")
                xml.leaf("nutrientTypeCode", nutrient.code, path: nutrient.values.path)
                let term = CINTradeItem.nutrientTerms[nutrient.code] ?? ""
                if let precision = header.precisions[term] {
                    xml.leaf("measurementPrecisionCode", precision.value, path: precision.path)
                }
                for part in nutrient.values.value.split(separator: "|", omittingEmptySubsequences: true) {
                    xml.quantityLeaf("quantityContained", String(part), path: nutrient.values.path)
                }
                xml.raw("</nutrientDetail>")
            }
            xml.raw("</nutrientHeader>\n")
        }
    }
}

/// XML text being built: markup appended as it is, values escaped.
struct XMLText {
    private(set) var text = ""
    /// Paths whose values had characters XML 1.0 cannot hold (replaced by U+FFFD).
    private(set) var replaced: [String] = []

    init() { text.reserveCapacity(8192) }

    mutating func raw(_ markup: String) { text += markup }

    /// `<name languageCode=…>value</name>`, with a unit attribute when the value is a quantity
    /// (`"500 GRM"`) and has no language.
    mutating func leaf(_ leaf: ItemParts.Leaf) {
        if let language = leaf.language {
            text += "<\(leaf.element) languageCode=\""
            append(language, path: leaf.path, inAttribute: true)
            text += "\">"
            append(leaf.value, path: leaf.path, inAttribute: false)
            text += "</\(leaf.element)>"
        } else {
            quantityLeaf(leaf.element, leaf.value, path: leaf.path)
        }
    }

    /// `<name>value</name>`.
    mutating func leaf(_ name: String, _ value: String, path: String) {
        text += "<\(name)>"
        append(value, path: path, inAttribute: false)
        text += "</\(name)>"
    }

    /// `<name measurementUnitCode="UNIT">NUMBER</name>` for `"NUMBER UNIT"`, else a plain leaf.
    mutating func quantityLeaf(_ name: String, _ value: String, path: String) {
        guard let (number, unit) = Self.quantity(value) else {
            leaf(name, value, path: path)
            return
        }
        text += "<\(name) measurementUnitCode=\"\(unit)\">\(number)</\(name)>"
    }

    /// A decimal number, one space and a UN/ECE Rec. 20 code (2 or 3 capitals and digits).
    static func quantity(_ value: String) -> (Substring, Substring)? {
        let parts = value.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let number = parts[0].utf8
        let unit = parts[1].utf8
        guard (2...3).contains(unit.count),
            unit.allSatisfy({ ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) }),
            let first = number.first, first != UInt8(ascii: "."), number.last != UInt8(ascii: "."),
            number.dropFirst(first == UInt8(ascii: "-") ? 1 : 0).allSatisfy({ ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: ".") }),
            number.filter({ $0 == UInt8(ascii: ".") }).count <= 1, number.count > (first == UInt8(ascii: "-") ? 1 : 0)
        else { return nil }
        return (parts[0], parts[1])
    }

    /// Appends `value` escaped: `&`, `<`, `>` always, quotes and white space in attributes, a
    /// carriage return as a character reference (a parser would turn a literal one into a line
    /// feed), and characters XML 1.0 cannot hold replaced by U+FFFD.
    mutating func append(_ value: String, path: String, inAttribute: Bool) {
        let needsWork = value.utf8.contains { byte in
            byte < 0x20 || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
                || (inAttribute && (byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'"))) || byte == 0xEF
        }
        guard needsWork else {
            text += value
            return
        }
        var replacedAny = false
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": text += "&amp;"
            case "<": text += "&lt;"
            case ">": text += "&gt;"
            case "\"" where inAttribute: text += "&quot;"
            case "'" where inAttribute: text += "&apos;"
            case "\r": text += "&#13;"
            case "\t" where inAttribute: text += "&#9;"
            case "\n" where inAttribute: text += "&#10;"
            case "\t", "\n": text.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                text += "\u{FFFD}"
                replacedAny = true
            default: text.unicodeScalars.append(scalar)
            }
        }
        if replacedAny, !replaced.contains(path) { replaced.append(path) }
    }
}
