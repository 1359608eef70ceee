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
        let reader = try XMLStreamReader(path: path, makeName: CINElementName.init)
        var reading = CINReading(path: path)
        // The UTF-8 of the current element's text, gathered only inside a trade item (the only
        // place a leaf's value is read); emptied when an element opens or closes.
        var text: [UInt8] = []
        text.reserveCapacity(256)
        do throws(ImportIssue) {
            while !reading.stop, let node = try reader.next() {
                switch node {
                case .start(let name, let isEmpty):
                    // Asked only when there is text: emptying an empty array is not free.
                    if !text.isEmpty { text.removeAll(keepingCapacity: true) }
                    reading.start(name, isEmpty: isEmpty, reader: reader)
                case .text: if reading.item != nil { reader.appendText(to: &text) }
                case .end(let name): reading.end(name, text: &text, body)
                }
            }
        } catch {
            // A syntax error after some items: they stay imported, the error ends the file. Before
            // any item (or a refused document type) the file as a whole is refused.
            if reading.records == 0 || error.message.hasPrefix("the XML declares") { throw error }
            _ = body(.failed(error))
        }
    }
}

/// An element's local name as the importer sees it: the name, what it is to the mapping, and the
/// lookups every element of that name would repeat, made once per distinct name.
struct CINElementName {
    /// The names the mapping treats apart (elements opening state, parents and leaves it maps).
    enum Role: String {
        case other = ""
        case documentCommandHeader, tradeItem, nutrientHeader, nutrientDetail, allergen, childTradeItem
        case countryOfOrigin, tradeItemMeasurements, manufacturerOfTradeItem, brandOwner
        case nextLowerLevelTradeItemInformation
        case nutrientTypeCode, quantityContained, measurementPrecisionCode, preparationStateCode
        case nutrientBasisQuantity, servingSize, allergenTypeCode, levelOfContainmentCode, gtin
        case quantityOfNextLowerLevelTradeItem, countryCode, depth, height, width, partyName
        case quantityOfChildren, totalQuantityOfNextLowerLevelTradeItem
        case tradeItemDescription, descriptionShort, functionalName
    }

    let string: String
    let role: Role
    /// A GS1 Web Vocabulary term of its own (`VocabularyTerms.known`).
    let isKnownTerm: Bool
    /// Structure or envelope, never named as unmapped (`CINImporter.structural`).
    let isStructural: Bool

    init(_ string: String) {
        self.string = string
        role = string.isEmpty ? .other : Role(rawValue: string) ?? .other
        isKnownTerm = VocabularyTerms.known.contains(string)
        isStructural = CINImporter.structural.contains(string)
    }
}

/// The state of one CIN file's import between nodes: the open elements, the command, the trade
/// item being gathered and its open nutrient header, nutrient, allergen and child. A struct
/// changed in place, so the item is never copied and no access is checked at run time.
private struct CINReading {
    /// An open element: its name and the two attributes the mapping reads.
    struct OpenElement {
        var name: CINElementName
        var language: String?
        var unit: String?
        var hasChildren = false
    }

    let path: String
    var stack: [OpenElement] = []
    var command: String?
    var item: CINTradeItem?
    var itemDepth = 0
    var header: CINTradeItem.NutrientHeader?
    var nutrient: (code: String, quantities: [String], precision: String?)?
    var allergen: (code: String?, level: String?) = (nil, nil)
    var child: (gtin: String?, quantity: String?) = (nil, nil)
    var stop = false
    var records = 0

    init(path: String) { self.path = path }

    mutating func start(_ name: CINElementName, isEmpty: Bool, reader: XMLStreamReader<CINElementName>) {
        if !stack.isEmpty { stack[stack.count - 1].hasChildren = true }
        let isCommandHeader = name.role == .documentCommandHeader
        switch name.role {
        case .documentCommandHeader: command = nil
        case .tradeItem where item == nil:
            item = CINTradeItem(line: reader.line, command: command)
            itemDepth = stack.count
        case .nutrientHeader: header = CINTradeItem.NutrientHeader()
        case .nutrientDetail: nutrient = ("", [], nil)
        case .allergen: allergen = (nil, nil)
        case .childTradeItem: child = (nil, nil)
        default: break
        }
        // Attributes are read only where they are used: the command's type, and inside a trade
        // item a leaf's language and unit, and whether an empty element has any.
        var element = OpenElement(name: name)
        var hasAttributes = false
        if item != nil || isCommandHeader {
            while reader.nextAttribute() {
                hasAttributes = true
                if reader.attributeNameIs("languageCode") {
                    element.language = reader.attributeValue()
                } else if reader.attributeNameIs("measurementUnitCode") {
                    element.unit = reader.attributeValue()
                } else if isCommandHeader, reader.attributeNameIs("type") {
                    command = reader.attributeValue()
                }
            }
            if hasAttributes { reader.moveToElement() }
        }
        if isEmpty {
            if item != nil, hasAttributes {
                leaf(element, value: { "" }, parent: stack.last?.name.role ?? .other)
            }
        } else {
            stack.append(element)
        }
    }

    /// An element closes; `text` is what it held (the UTF-8 of its text nodes), emptied here.
    mutating func end(_ name: CINElementName, text: inout [UInt8], _ body: (ImportRecord) -> Bool) {
        guard let element = stack.popLast() else { return }
        let parent = stack.last?.name.role ?? .other
        if !element.hasChildren, item != nil, let range = Self.trimmedRange(text) {
            leaf(element, value: { Self.string(text, range) }, parent: parent)
        }
        if !text.isEmpty { text.removeAll(keepingCapacity: true) }
        switch name.role {
        case .nutrientDetail:
            // Moved out (take()), not copied: the nutrient ends here.
            if let done = nutrient.take(), header != nil {
                if CINTradeItem.nutrientTerms[done.code] == nil, !done.code.isEmpty,
                    item?.unmapped.contains("nutrientTypeCode " + done.code) == false
                {
                    item?.unmapped.append("nutrientTypeCode " + done.code)
                }
                header?.nutrients.append(done)
            }
        case .nutrientHeader:
            if let done = header.take() { item?.headers.append(done) }
        case .allergen:
            if let code = allergen.code { item?.add("hasAllergen[\(code)].allergenLevelOfContainmentCode", allergen.level ?? "") }
        case .childTradeItem:
            if let gtin = child.gtin { item?.children.append((gtin, child.quantity ?? "1")) }
        case .tradeItem where stack.count == itemDepth:
            if let done = item.take() { finish(done, body) }
        default: break
        }
    }

    /// A leaf element's value (its text, trimmed, or "" for an empty element) mapped onto the
    /// trade item. `value` is asked only where the mapping keeps it.
    mutating func leaf(_ element: OpenElement, value makeValue: () -> String, parent: CINElementName.Role) {
        guard item != nil else { return }
        let name = element.name
        let language = element.language.map { "@" + $0 } ?? ""
        let unit = element.unit
        var value: String { makeValue() }
        var quantity: String { unit.map { "\(makeValue()) \($0)" } ?? makeValue() }
        switch (parent, name.role) {
        case (.nutrientDetail, .nutrientTypeCode): nutrient?.code = value
        case (.nutrientDetail, .quantityContained): nutrient?.quantities.append(quantity)
        case (.nutrientDetail, .measurementPrecisionCode): nutrient?.precision = value
        case (.nutrientHeader, .preparationStateCode): header?.preparationState = value
        case (.nutrientHeader, .nutrientBasisQuantity): header?.basis = quantity
        case (.nutrientHeader, .servingSize):
            header?.servingSize = quantity
        case (.allergen, .allergenTypeCode): allergen.code = value
        case (.allergen, .levelOfContainmentCode): allergen.level = value
        case (.childTradeItem, .gtin): child.gtin = value
        case (.childTradeItem, .quantityOfNextLowerLevelTradeItem): child.quantity = value
        case (.countryOfOrigin, .countryCode): item!.add("countryOfOrigin", value)
        // GDSN's depth, height and width are the packed item's, measured by the GS1 Package
        // Measurement Rules: the vocabulary's inPackage* terms say exactly that.
        case (.tradeItemMeasurements, .depth): item!.add("inPackageDepth", quantity)
        case (.tradeItemMeasurements, .height): item!.add("inPackageHeight", quantity)
        case (.tradeItemMeasurements, .width): item!.add("inPackageWidth", quantity)
        case (.tradeItem, .gtin): item!.add("gtin", value)
        case (.manufacturerOfTradeItem, .partyName): item!.add("manufacturer.organizationName", value)
        case (.brandOwner, .partyName): item!.add("brandOwner.organizationName", value)
        case (.nextLowerLevelTradeItemInformation, .quantityOfChildren),
            (.nextLowerLevelTradeItemInformation, .totalQuantityOfNextLowerLevelTradeItem):
            item!.add(name.string, value)
        case (.nutrientDetail, _), (_, .countryCode):
            // A nutrient's other members (daily intake) would join across nutrients into one
            // meaningless list, and a bare country code belongs to an address, not the origin.
            if !item!.unmapped.contains(name.string) { item!.unmapped.append(name.string) }
        case (_, .tradeItemDescription):
            item!.names[String(language.dropFirst()), default: (nil, nil, nil)].description = value
        case (_, .descriptionShort): item!.names[String(language.dropFirst()), default: (nil, nil, nil)].short = value
        case (_, .functionalName):
            item!.names[String(language.dropFirst()), default: (nil, nil, nil)].functional = value
        default:
            if name.isKnownTerm {
                item!.add(name.string + (unit == nil ? language : ""), quantity)
            } else if !name.isStructural, !item!.unmapped.contains(name.string) {
                item!.unmapped.append(name.string)
            }
        }
    }

    mutating func finish(_ finished: consuming CINTradeItem, _ body: (ImportRecord) -> Bool) {
        records += 1
        let command = finished.command ?? "ADD"
        guard CINImporter.importedCommands.contains(command) else {
            let gtin = finished.value("gtin") ?? "without a GTIN"
            stop = !body(
                .failed(
                    ImportIssue(
                        file: path, line: finished.line, field: "documentCommand",
                        message:
                            "trade item \(gtin) comes with the command \(command), which is reported, not imported (only ADD, CHANGE_BY_REFRESH and CORRECT are)"
                    )))
            return
        }
        guard finished.value("gtin") != nil else {
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
        let source = SourceLocation(file: path, line: finished.line)
        let sheet = Datasheet(uniqueAttributes: finished.attributes(), source: source)
        stop = !body(.datasheet(sheet, issues: issues))
    }

    /// The bytes of `text` without leading and trailing XML white space (space, tab, line
    /// breaks); nil when nothing else is there.
    static func trimmedRange(_ text: [UInt8]) -> Range<Int>? {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D }
        guard let first = text.firstIndex(where: { !isSpace($0) }) else { return nil }
        var last = text.count - 1
        while isSpace(text[last]) { last -= 1 }
        return first..<(last + 1)
    }

    /// The trimmed text as a string. Trimming bytes is trimming characters as long as ASCII sits on
    /// both edges; a non-ASCII edge could join a space into one character (a combining mark after
    /// it, a prepended mark before it), so then the characters are trimmed as they always were.
    static func string(_ text: [UInt8], _ range: Range<Int>) -> String {
        let trimmedLeft = range.lowerBound > 0
        let trimmedRight = range.upperBound < text.count
        if (trimmedLeft && text[range.lowerBound] >= 0x80) || (trimmedRight && text[range.upperBound - 1] >= 0x80) {
            return String(decoding: text, as: UTF8.self).trimmingXMLSpace()
        }
        return String(decoding: text[range], as: UTF8.self)
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
