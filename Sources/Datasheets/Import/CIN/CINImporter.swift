/// Imports GDSN Catalogue Item Notifications (BMS 3.1 XML) as data pools send them: one datasheet
/// per `tradeItem`, children included (a case and its consumer units are separate datasheets,
/// linked by `childTradeItem[GTIN].quantityOfNextLowerLevelTradeItem`).
///
/// Streams through `XMLStreamReader`: memory is bounded by one trade item. Elements are matched by
/// local name (prefixes are namespaces). ADD, CHANGE_BY_REFRESH and CORRECT import; DELETE is
/// reported, not imported. Items before a syntax error are kept; the error ends the file.
public struct CINImporter: Sendable {
    /// Creates a value from its parts.
    public init() {}

    /// The document commands whose items are imported.
    static let importedCommands: Set<String> = ["ADD", "CHANGE_BY_REFRESH", "CORRECT"]

    /// Elements that only carry structure or the envelope: never named as unmapped.
    static let structural: Set<String> = [
        "tradeItem", "tradeItemInformation", "extension", "catalogueItem", "catalogueItemChildItemLink",
        "nextLowerLevelTradeItemInformation", "childTradeItem", "allergen", "allergenRelatedInformation",
        "nutrientHeader", "nutrientDetail", "tradeItemDescriptionInformation", "brandNameInformation",
        "tradeItemMeasurements", "tradeItemWeight", "countryOfOrigin", "placeOfItemActivityInformation",
        "brandOwner", "manufacturerOfTradeItem",
    ]

    /// Reads `path` and calls `body` with each record in file order; stops early when `body` returns false.
    public func read(path: String, _ body: (ImportRecord) -> Bool) throws(ImportIssue) {
        let reader = try XMLStreamReader(path: path)
        var stack: [(name: String, attributes: [String: String], hasChildren: Bool)] = []
        var text = ""
        var command: String?
        var item: CINTradeItem?
        var itemDepth = 0
        var header: CINTradeItem.NutrientHeader?
        var nutrient: (code: String, quantities: [String], precision: String?)?
        var allergen: (code: String?, level: String?) = (nil, nil)
        var child: (gtin: String?, quantity: String?) = (nil, nil)
        var stop = false
        var records = 0

        func leaf(_ name: String, _ attributes: [String: String], _ value: String, parent: String) {
            guard var current = item else { return }
            defer { item = current }
            let language = attributes["languageCode"].map { "@" + $0 } ?? ""
            let unit = attributes["measurementUnitCode"]
            let quantity = unit.map { "\(value) \($0)" } ?? value
            switch (parent, name) {
            case ("nutrientDetail", "nutrientTypeCode"): nutrient?.code = value
            case ("nutrientDetail", "quantityContained"): nutrient?.quantities.append(quantity)
            case ("nutrientDetail", "measurementPrecisionCode"): nutrient?.precision = value
            case ("nutrientHeader", "preparationStateCode"): header?.preparationState = value
            case ("nutrientHeader", "nutrientBasisQuantity"): header?.basis = quantity
            case ("nutrientHeader", "servingSize"):
                header?.servingSize = quantity
            case ("allergen", "allergenTypeCode"): allergen.code = value
            case ("allergen", "levelOfContainmentCode"): allergen.level = value
            case ("childTradeItem", "gtin"): child.gtin = value
            case ("childTradeItem", "quantityOfNextLowerLevelTradeItem"): child.quantity = value
            case ("countryOfOrigin", "countryCode"): current.add("countryOfOrigin", value)
            // GDSN's depth, height and width are the packed item's, measured by the GS1 Package
            // Measurement Rules: the vocabulary's inPackage* terms say exactly that.
            case ("tradeItemMeasurements", "depth"): current.add("inPackageDepth", quantity)
            case ("tradeItemMeasurements", "height"): current.add("inPackageHeight", quantity)
            case ("tradeItemMeasurements", "width"): current.add("inPackageWidth", quantity)
            case ("tradeItem", "gtin"): current.add("gtin", value)
            case ("manufacturerOfTradeItem", "partyName"): current.add("manufacturer.organizationName", value)
            case ("brandOwner", "partyName"): current.add("brandOwner.organizationName", value)
            case ("nextLowerLevelTradeItemInformation", "quantityOfChildren"),
                ("nextLowerLevelTradeItemInformation", "totalQuantityOfNextLowerLevelTradeItem"):
                current.add(name, value)
            case ("nutrientDetail", _), (_, "countryCode"):
                // A nutrient's other members (daily intake) would join across nutrients into one
                // meaningless list, and a bare country code belongs to an address, not the origin.
                if !current.unmapped.contains(name) { current.unmapped.append(name) }
            case (_, "tradeItemDescription"):
                current.names[String(language.dropFirst()), default: (nil, nil, nil)].description = value
            case (_, "descriptionShort"): current.names[String(language.dropFirst()), default: (nil, nil, nil)].short = value
            case (_, "functionalName"):
                current.names[String(language.dropFirst()), default: (nil, nil, nil)].functional = value
            default:
                if VocabularyTerms.known.contains(name) {
                    current.add(name + (unit == nil ? language : ""), quantity)
                } else if !Self.structural.contains(name), !current.unmapped.contains(name) {
                    current.unmapped.append(name)
                }
            }
        }

        func finish(_ finished: CINTradeItem) {
            records += 1
            let command = finished.command ?? "ADD"
            guard Self.importedCommands.contains(command) else {
                let gtin = finished.values["gtin"] ?? "without a GTIN"
                stop = !body(
                    .failed(
                        ImportIssue(
                            file: path, line: finished.line, field: "documentCommand",
                            message:
                                "trade item \(gtin) comes with the command \(command), which is reported, not imported (only ADD, CHANGE_BY_REFRESH and CORRECT are)"
                        )))
                return
            }
            guard finished.values["gtin"] != nil else {
                stop = !body(
                    .failed(
                        ImportIssue(
                            file: path, line: finished.line, field: "gtin",
                            message: "trade item without a gtin element; skipped, the others go on")))
                return
            }
            var issues: [ImportIssue] = []
            if !finished.unmapped.isEmpty {
                issues.append(
                    ImportIssue(
                        file: path, line: finished.line,
                        message: "no GS1 Web Vocabulary term yet, not imported: " + finished.unmapped.joined(separator: ", ")))
            }
            let sheet = Datasheet(
                uniqueAttributes: finished.attributes(), source: SourceLocation(file: path, line: finished.line))
            stop = !body(.datasheet(sheet, issues: issues))
        }

        do throws(ImportIssue) {
            while !stop, let node = try reader.next() {
                switch node {
                case .start(let name, let attributes, let isEmpty):
                    if !stack.isEmpty { stack[stack.count - 1].hasChildren = true }
                    text = ""
                    switch name {
                    case "documentCommandHeader": command = attributes["type"]
                    case "tradeItem" where item == nil:
                        item = CINTradeItem(line: reader.line, command: command)
                        itemDepth = stack.count
                    case "nutrientHeader": header = CINTradeItem.NutrientHeader()
                    case "nutrientDetail": nutrient = ("", [], nil)
                    case "allergen": allergen = (nil, nil)
                    case "childTradeItem": child = (nil, nil)
                    default: break
                    }
                    if isEmpty {
                        if item != nil, !attributes.isEmpty { leaf(name, attributes, "", parent: stack.last?.name ?? "") }
                    } else {
                        stack.append((name, attributes, false))
                    }
                case .text(let value):
                    text += value
                case .end(let name):
                    guard let element = stack.popLast() else { break }
                    let parent = stack.last?.name ?? ""
                    if !element.hasChildren {
                        let value = text.trimmingXMLSpace()
                        if !value.isEmpty { leaf(name, element.attributes, value, parent: parent) }
                    }
                    text = ""
                    switch name {
                    case "nutrientDetail":
                        if let done = nutrient, header != nil {
                            if CINTradeItem.nutrientTerms[done.code] == nil, !done.code.isEmpty,
                                item?.unmapped.contains("nutrientTypeCode " + done.code) == false
                            {
                                item?.unmapped.append("nutrientTypeCode " + done.code)
                            }
                            header?.nutrients.append(done)
                        }
                        nutrient = nil
                    case "nutrientHeader":
                        if let done = header { item?.headers.append(done) }
                        header = nil
                    case "allergen":
                        if let code = allergen.code { item?.add("hasAllergen[\(code)].allergenLevelOfContainmentCode", allergen.level ?? "") }
                    case "childTradeItem":
                        if let gtin = child.gtin { item?.children.append((gtin, child.quantity ?? "1")) }
                    case "tradeItem" where stack.count == itemDepth:
                        if let done = item { finish(done) }
                        item = nil
                    default: break
                    }
                }
            }
        } catch {
            // A syntax error after some items: they stay imported, the error ends the file. Before
            // any item (or a refused document type) the file as a whole is refused.
            if records == 0 || error.message.hasPrefix("the XML declares") { throw error }
            _ = body(.failed(error))
        }
    }
}


extension String {
    /// The string without leading and trailing XML white space (space, tab, line breaks).
    fileprivate func trimmingXMLSpace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" || $0 == "\r\n" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
