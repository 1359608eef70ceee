import Testing

@testable import Datasheets

/// Properties whose range is a class of the GS1 Web Vocabulary flatten the same way whatever
/// shape the vocabulary allows (the full sweep over the vocabulary file is `RulesTests.VocabularyShapeTests`).
@Suite("Class-valued properties")
struct ClassShapeTests {
    static func flat(_ members: String) throws -> Datasheet {
        let json =
            #"{"@context": {"gs1": "https://gs1.org/voc/", "@vocab": "https://gs1.org/voc/"}, "gtin": "6411401015090", "#
            + members + "}"
        let (attributes, issues) = ProductFlattener().flatten(try JSONParser.parse(json), file: "t", line: 1)
        #expect(issues.isEmpty, "\(issues)")
        return Datasheet(attributes: attributes)
    }

    @Test("an organisation flattens to its name and address; a node with an @id is not a bare reference")
    func organisation() throws {
        let sheet = try Self.flat(
            #""manufacturer": {"@id": "urn:gln:6410000000005", "@type": "Organization", "organizationName": [{"@value": "Oy Example Ab", "@language": "fi"}], "address": {"streetAddress": "Esimerkkitie 1", "postalCode": "00100", "addressLocality": "Helsinki", "addressCountry": {"countryCode": "FI"}}}"#
        )
        #expect(sheet["manufacturer"] == nil)
        #expect(sheet["manufacturer.organizationName@fi"] == "Oy Example Ab")
        #expect(sheet["manufacturer.address.postalCode"] == "00100")
        #expect(sheet["manufacturer.address.addressCountry"] == "FI")
    }

    @Test("a country is its code, alone or in a list")
    func country() throws {
        #expect(try Self.flat(#""countryOfOrigin": {"countryCode": "FI"}"#)["countryOfOrigin"] == "FI")
        #expect(
            try Self.flat(#""countryOfOrigin": [{"countryCode": "FI"}, {"gs1:countryCode": "SE"}]"#)["countryOfOrigin"]
                == "FI|SE")
    }

    @Test("an array of one object is the object; repeated objects join their values")
    func arrays() throws {
        let one = try Self.flat(#""image": [{"referencedFileURL": "https://e.com/a.jpg"}]"#)
        let single = try Self.flat(#""image": {"referencedFileURL": "https://e.com/a.jpg"}"#)
        #expect(one["image.referencedFileURL"] == "https://e.com/a.jpg")
        #expect(one == single)
        let two = try Self.flat(#""image": [{"referencedFileURL": "a"}, {"referencedFileURL": "b"}]"#)
        #expect(two["image.referencedFileURL"] == "a|b")
    }

    @Test("a quantity keyed with a prefix the context declares is a quantity")
    func prefixedQuantity() throws {
        let json =
            #"{"@context": {"voc": "https://gs1.org/voc/"}, "voc:gtin": "6411401015090", "voc:netContent": {"voc:value": 500, "voc:unitCode": "GRM"}}"#
        let (attributes, _) = ProductFlattener().flatten(try JSONParser.parse(json), file: "t", line: 1)
        #expect(Datasheet(attributes: attributes)["netContent"] == "500 GRM")
    }

    @Test("ingredients are a keyed list by their sequence")
    func ingredients() throws {
        let sheet = try Self.flat(
            #""ingredient": [{"ingredientSequence": 1, "ingredientName": "strawberries", "ingredientContentPercentage": 45}, {"ingredientSequence": 2, "ingredientName": "sugar"}]"#
        )
        #expect(sheet["ingredient[1].ingredientName"] == "strawberries")
        #expect(sheet["ingredient[1].ingredientContentPercentage"] == "45")
        #expect(sheet["ingredient[2].ingredientName"] == "sugar")
    }

    @Test("the JSON writer nests class members, and the importer reads them back to the same paths")
    func writerRoundTrip() throws {
        let sheet = Datasheet(flat: [
            ("gtin", "6411401015090"), ("manufacturer.organizationName@fi", "Oy Example Ab"),
            ("manufacturer.address.postalCode", "00100"), ("manufacturer.address.addressLocality@fi", "Helsinki"),
            ("measured.fatPerNutrientBasis", "3.2 GRM"), ("countryOfOrigin", "FI"),
        ])
        let line = DatasheetJSONWriter.jsonLine(sheet)
        #expect(
            line.contains(#""gs1:manufacturer":{"gs1:organizationName":{"@value":"Oy Example Ab","@language":"fi"}"#))
        let (attributes, issues) = ProductFlattener().flatten(try JSONParser.parse(line), file: "t", line: 1)
        #expect(issues.isEmpty)
        #expect(
            Set(attributes.map { "\($0.path)=\($0.value)" }) == Set(sheet.attributes.map { "\($0.path)=\($0.value)" }))
    }
}
