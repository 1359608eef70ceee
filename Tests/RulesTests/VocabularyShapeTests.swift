import Datasheets
import Foundation
import Testing

@testable import Rules

/// The importers against the GS1 Web Vocabulary file itself (`Fixtures/gs1/gs1Voc-v1.16.jsonld`): for
/// every vocabulary property the built-in rules read, its range decides the JSON-LD shapes a supplier
/// may write, and each shape must flatten to the attribute path and value the rules read.
@Suite("The vocabulary's own shapes")
struct VocabularyShapeTests {
    /// The vocabulary's properties: term → range (`gs1:Organization`, `xsd:float`, `rdf:langString`, …).
    static let ranges: [String: String] = {
        guard
            let url = Bundle.module.url(
                forResource: "gs1Voc-v1.16", withExtension: "jsonld", subdirectory: "Fixtures/gs1"),
            var data = try? Data(contentsOf: url)
        else { return [:] }
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { data.removeFirst(3) }
        guard let document = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let graph = document["@graph"] as? [[String: Any]]
        else { return [:] }
        var ranges: [String: String] = [:]
        for node in graph {
            guard let id = node["@id"] as? String, id.hasPrefix("gs1:"),
                let range = (node["rdfs:range"] as? [String: Any])?["@id"] as? String
            else { continue }
            ranges[String(id.dropFirst(4))] = range
        }
        return ranges
    }()

    /// The classes the vocabulary declares as code lists (subclasses of `gs1:TypeCode`).
    static let codeLists: Set<String> = {
        guard
            let url = Bundle.module.url(
                forResource: "gs1Voc-v1.16", withExtension: "jsonld", subdirectory: "Fixtures/gs1"),
            var data = try? Data(contentsOf: url)
        else { return [] }
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { data.removeFirst(3) }
        guard let document = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let graph = document["@graph"] as? [[String: Any]]
        else { return [] }
        return Set(
            graph.compactMap { node in
                guard let id = node["@id"] as? String,
                    (node["rdfs:subClassOf"] as? [String: Any])?["@id"] as? String == "gs1:TypeCode"
                else { return nil }
                return id
            })
    }()

    /// Every top-level term the built-in rules read (in `reads` or in an expression), that the vocabulary has.
    static let termsRead: [String] = {
        guard let engine = try? BuiltInRuleSets.engine(subject: nil) else { return [] }
        var terms = Set(engine.rules.flatMap(\.reads))
        terms.formUnion(engine.slotIndex.keys)
        var result: Set<String> = []
        for path in terms {
            var term = String(AttributePath(path).term)
            if term == "measured", let member = AttributePath(path).member { term = String(member) }
            if ranges[term] != nil { result.insert(term) }
        }
        return result.sorted()
    }()

    /// A JSON-LD document with one product holding `value` under `gs1:term`, imported; its attributes.
    static func imported(_ term: String, _ value: String) throws -> [String: String] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("shapes-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("p.jsonld")
        let document = """
            {"@context": {"gs1": "https://ref.gs1.org/voc/", "xsd": "http://www.w3.org/2001/XMLSchema#"},
             "@type": "gs1:FoodBeverageTobaccoProduct", \(term == "gtin" ? "" : #""gs1:gtin": "6411401015090", "#)"gs1:\(term)": \(value)}
            """
        try Data(document.utf8).write(to: file)
        var attributes: [String: String] = [:]
        for record in try DatasheetImporter.readAll(path: file.path) {
            guard case .datasheet(let sheet, let issues) = record else {
                Issue.record("\(term): \(value) was not read: \(record)")
                continue
            }
            #expect(issues.isEmpty, "\(term): \(value): \(issues)")
            for attribute in sheet.attributes { attributes[attribute.path] = attribute.value }
        }
        return attributes
    }

    /// The shapes the range allows and the flat attributes each must give.
    static func shapes(_ term: String, range: String) -> [(json: String, expected: [String: String])] {
        switch range {
        case "gs1:QuantitativeValue", "gs1:NutritionMeasurementType":
            return [
                (#"{"value": 12.5, "unitCode": "GRM"}"#, [term: "12.5 GRM"]),
                (#"{"@type": "\#(range)", "gs1:value": "12.5", "gs1:unitCode": "GRM"}"#, [term: "12.5 GRM"]),
                (
                    #"{"gs1:value": {"@value": "12.5", "@type": "xsd:float"}, "gs1:unitCode": "GRM"}"#,
                    [term: "12.5 GRM"]
                ),
                (
                    #"[{"value": 1975, "unitCode": "KJO"}, {"value": 472, "unitCode": "E14"}]"#,
                    [term: "1975 KJO|472 E14"]
                ),
                (#"[{"value": 12.5, "unitCode": "GRM"}]"#, [term: "12.5 GRM"]),
            ]
        case "gs1:Country":
            return [
                (#""FI""#, [term: "FI"]), (#"{"gs1:countryCode": "FI"}"#, [term: "FI"]),
                (#"{"@type": "gs1:Country", "countryCode": "FI"}"#, [term: "FI"]),
                (#"[{"countryCode": "FI"}, {"countryCode": "SE"}]"#, [term: "FI|SE"]),
            ]
        case "gs1:Organization":
            return [
                (#""Oy Example Ab, Helsinki""#, [term: "Oy Example Ab, Helsinki"]),
                (
                    #"{"@type": "gs1:Organization", "gs1:organizationName": {"@value": "Oy Example Ab", "@language": "fi"}, "gs1:address": {"@type": "gs1:PostalAddress", "gs1:streetAddress": "Esimerkkitie 1", "gs1:postalCode": "00100", "gs1:addressLocality": {"@value": "Helsinki", "@language": "fi"}, "gs1:addressCountry": {"gs1:countryCode": "FI"}}}"#,
                    [
                        "\(term).organizationName@fi": "Oy Example Ab",
                        "\(term).address.streetAddress": "Esimerkkitie 1",
                        "\(term).address.postalCode": "00100", "\(term).address.addressLocality@fi": "Helsinki",
                        "\(term).address.addressCountry": "FI",
                    ]
                ),
                (
                    #"[{"@id": "urn:example:org", "organizationName": "Oy Example Ab"}]"#,
                    ["\(term).organizationName": "Oy Example Ab"]
                ),
            ]
        case "gs1:AllergenDetails":
            return [
                (
                    #"{"gs1:allergenType": {"@id": "gs1:AllergenTypeCode-AM"}, "gs1:allergenLevelOfContainmentCode": {"@id": "gs1:LevelOfContainmentCode-CONTAINS"}}"#,
                    ["\(term)[AM].allergenLevelOfContainmentCode": "CONTAINS"]
                ),
                (
                    #"[{"allergenType": "AW", "allergenLevelOfContainmentCode": "MAY_CONTAIN"}, {"allergenType": "https://ref.gs1.org/voc/AllergenTypeCode-AM", "allergenLevelOfContainmentCode": "gs1:LevelOfContainmentCode-FREE_FROM"}]"#,
                    [
                        "\(term)[AW].allergenLevelOfContainmentCode": "MAY_CONTAIN",
                        "\(term)[AM].allergenLevelOfContainmentCode": "FREE_FROM",
                    ]
                ),
            ]
        case "gs1:ReferencedFileDetails":
            return [
                (
                    #"{"@type": "gs1:ReferencedFileDetails", "gs1:referencedFileURL": "https://example.com/use.pdf", "gs1:referencedFileType": {"@id": "gs1:ReferencedFileTypeCode-USAGE_INSTRUCTIONS"}}"#,
                    [
                        "\(term).referencedFileURL": "https://example.com/use.pdf",
                        "\(term).referencedFileType": "USAGE_INSTRUCTIONS",
                    ]
                )
            ]
        case "gs1:FoodAndBeveragePreparationInformation":
            return [
                (
                    #"{"gs1:preparationInstructions": {"@value": "Whisk into milk", "@language": "en"}}"#,
                    ["\(term).preparationInstructions@en": "Whisk into milk"]
                )
            ]
        case "rdf:langString":
            return [
                (#""Oat biscuits""#, [term: "Oat biscuits"]),
                (#"{"@value": "Oat biscuits", "@language": "en"}"#, ["\(term)@en": "Oat biscuits"]),
                (
                    #"[{"@value": "Kaurakeksit", "@language": "fi"}, {"@value": "Havrekex", "@language": "sv"}]"#,
                    ["\(term)@fi": "Kaurakeksit", "\(term)@sv": "Havrekex"]
                ),
            ]
        case let code where codeLists.contains(code):
            let name = code.dropFirst(4)
            return [
                (#""CASE""#, [term: "CASE"]), (#"{"@id": "gs1:\#(name)-CASE"}"#, [term: "CASE"]),
                (#"{"@id": "https://ref.gs1.org/voc/\#(name)-CASE"}"#, [term: "CASE"]),
            ]
        case let other where other.hasPrefix("gs1:"):
            return []  // a class without shapes here: the test says so
        default:  // xsd:string, xsd:float, xsd:date, xsd:boolean, …
            return [(#""2026-09-30""#, [term: "2026-09-30"]), (#"{"@value": "2026-09-30"}"#, [term: "2026-09-30"])]
        }
    }

    @Test("the vocabulary file is read and the rules read its terms")
    func vocabulary() {
        #expect(Self.ranges.count > 500)
        #expect(Self.ranges["manufacturer"] == "gs1:Organization")
        #expect(Self.termsRead.contains("manufacturer") && Self.termsRead.contains("countryOfOrigin"))
        #expect(Self.termsRead.count >= 30, "\(Self.termsRead)")
    }

    @Test("each property the rules read imports in every shape its range allows", arguments: termsRead)
    func shapes(_ term: String) throws {
        let range = try #require(Self.ranges[term])
        let shapes = Self.shapes(term, range: range)
        #expect(!shapes.isEmpty, "\(term): no shapes for its range \(range); add them")
        for (json, expected) in shapes {
            let attributes = try Self.imported(term, json)
            for (path, value) in expected {
                #expect(attributes[path] == value, "\(term) (\(range)) written as \(json): \(attributes)")
            }
        }
    }

    @Test("an organisation with a name and an address passes EU-007 and EU-015; without the address it fails")
    func organisation() throws {
        let engine = try BuiltInRuleSets.engine(selection: ["eu1169-particulars"])
        for term in ["manufacturer", "brandOwner"] {
            let shape = try #require(Self.shapes(term, range: "gs1:Organization").dropFirst().first)
            let full = Datasheet(flat: try Self.imported(term, shape.json).map { ($0.key, $0.value) })
            let findings = engine.check(full).findings.map(\.rule)
            #expect(!findings.contains("EU-007") && !findings.contains("EU-015"), "\(term): \(findings)")
            let nameOnly = try Self.imported(term, #"{"organizationName": "Oy Example Ab"}"#)
            let report = engine.check(Datasheet(flat: nameOnly.map { ($0.key, $0.value) }))
            #expect(!report.findings.map(\.rule).contains("EU-007"))
            let address = try #require(report.findings.first { $0.rule == "EU-015" })
            #expect(address.attribute == "manufacturer.address")
            #expect(address.observed == "Oy Example Ab")
        }
    }
}
