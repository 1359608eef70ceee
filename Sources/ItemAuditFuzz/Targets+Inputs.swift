import AuditLog
import Datasheets
import Foundation
import GS1
import Inspection
import Logging
import Rules

extension FuzzTarget {
    /// GS1 element strings (bracketed, FNC1-separated), scanner input and Digital Links; what
    /// parses is turned into a Digital Link and linted.
    static let gs1 = FuzzTarget(
        name: "gs1",
        seeds: [
            "(01)09506000134352(17)201225(10)ABC123", "]C1010950600013435217201225\u{1D}10ABC123",
            "https://id.gs1.org/01/09506000134352/10/ABC123?17=201225", "4006381333931", "0012345678905",
            "(8110)106141416543213500110000310123196000", "https://example.com/gtin/09506000134352/lot/A1%2F2",
            "]e0010950600013435210ABC", "(00)106141412345678908(400)PO-17(90)x",
        ].map { [UInt8]($0) },
        dictionary: [
            "(01)", "(10)", "(17)", "(21)", "(8110)", "\u{1D}", "]C1", "]d2", "https://id.gs1.org/", "/01/", "?", "&",
            "=", "%", "%2F", "0", "9",
        ].map { [UInt8]($0) },
        run: { input in
            let text = String(decoding: input, as: UTF8.self)
            let code = ScannedCode(text)
            if code.isValid { _ = try? code.elementString.digitalLinkURI() }
            _ = code.gtin
            for linter in GS1Linter.allCases { _ = linter.check(text) }
            _ = try? GS1ElementString(parsing: text)
        })

    /// Command JSON lines (`itemaudit record`): parse, and write back what parsed.
    static let commandJSON = FuzzTarget(
        name: "commands",
        seeds: [
            #"{"commandID":"c1","actor":"admin","type":"RegisterLocation","locationID":"S1","name":"Store","kind":0}"#,
            #"{"commandID":"c2","actor":"i1","type":"AllocateBatch","inspectorID":"i1","locationID":"S1","mode":2,"quantity":3,"occurredAt":"2026-01-05T10:00:00Z"}"#,
            #"{"commandID":"c3","actor":"i1","type":"RecordVerdicts","taskID":"t1","verdicts":[{"path":"name/fi","verdict":1}]}"#,
            #"{"commandID":"c4","actor":"i1","type":"CollectProduct","batchID":"B1","scanned":"(01)09506000134352"}"#,
        ].map { [UInt8]($0) },
        dictionary: [
            "{", "}", "[", "]", "\"", ":", ",", "null", "true", "-1", "1e308", "\\u0000", "\"type\"", "\"occurredAt\"",
            "2026-02-30",
        ].map { [UInt8]($0) },
        run: { input in
            guard let envelope = try? CommandEnvelope(jsonLine: String(decoding: input, as: UTF8.self)) else { return }
            _ = try? CommandEnvelope(jsonLine: envelope.jsonLine())
        })

    /// Rule files: the parser, the expression language and the compiler (through the linter),
    /// then an engine built from the file checks a datasheet.
    static let rules = FuzzTarget(
        name: "rules",
        seeds: [
            """
            set fuzz
            title Fuzz seed

            define Codes = ["AM", "GLUTEN", "EGGS"]

            rule FZ-001
              title     Alcohol needs a strength
              severity  failure
              reads     percentageOfAlcoholByVolume, productName
              when      exists(percentageOfAlcoholByVolume) and number(percentageOfAlcoholByVolume) > 1.2
              check     not (len(productName) < 3 * 2 - 1) or "x" in Codes
              message   Alcohol {observed} needs a name
              observed  percentageOfAlcoholByVolume
              expected  "a name"
              reference EU 1169/2011 Art. 28
            """
        ].map { [UInt8]($0) },
        dictionary: [
            "rule ", "  when ", "  check ", "  reads ", "  each ", "$key", "$.", "define ", "[", "]", " in ", "(", ")",
            " and ", " or ", "not ", "+", "-", "*", "/", "==", ">=", "\"", "{", "}", "exists(", "len(", "\n", "  ",
            "1.2", "ruleset ",
        ].map { [UInt8]($0) },
        run: { input in
            let text = String(decoding: input, as: UTF8.self)
            _ = RuleLinter.lint(text, file: "fuzz.rules")
            if let engine = try? RuleEngine(files: [(file: "fuzz.rules", text: text)]) {
                _ = engine.check(sampleDatasheet)
            }
        })

    /// The datasheet importers, one target per format (they read files).
    static func datasheets(scratch: URL) -> [FuzzTarget] {
        let jsonld =
            #"{"@context":{"gs1":"https://gs1.org/voc/"},"@type":"gs1:Product","gs1:gtin":"09506000134352","gs1:productName":[{"@value":"Maito","@language":"fi"}],"gs1:netContent":{"gs1:value":"1","gs1:unitCode":"LTR"}}"#
        let jsonl =
            #"{"gtin":"09506000134352","productName@fi":"Maito","netContent":"1 LTR","hasAllergen":[{"allergenTypeCode":"AM","allergenLevelOfContainmentCode":"CONTAINS"}]}"#
        let csv =
            "gtin,productName@fi,netContent,hasAllergen[AM].allergenLevelOfContainmentCode\n09506000134352,\"Maito, kevyt\",1 LTR,CONTAINS\n4006381333931,Leipä|Bröd,500 GRM,\n"
        let xml =
            #"<?xml version="1.0"?><m:catalogueItemNotificationMessage xmlns:m="urn:gs1:gdsn:catalogue_item_notification:xsd:3"><transaction><documentCommand><documentCommandHeader type="ADD"/><m:catalogueItemNotification><catalogueItem><tradeItem><gtin>09506000134352</gtin><tradeItemInformation><extension><nutrientHeader><servingSize measurementUnitCode="GRM">100</servingSize><nutrientDetail><nutrientTypeCode>FAT</nutrientTypeCode><quantityContained measurementUnitCode="GRM">3</quantityContained></nutrientDetail></nutrientHeader><allergen><allergenTypeCode>AM</allergenTypeCode><levelOfContainmentCode>CONTAINS</levelOfContainmentCode></allergen><tradeItemDescription languageCode="fi">Maito</tradeItemDescription></extension></tradeItemInformation></tradeItem></catalogueItem></m:catalogueItemNotification></documentCommand></transaction></m:catalogueItemNotificationMessage>"#
        let formats: [(String, DatasheetFormat, String)] = [
            ("jsonld", .jsonld, jsonld), ("jsonl", .jsonl, jsonl + "\n" + jsonl), ("csv", .csv, csv),
            ("xml", .xml, xml),
        ]
        return formats.map { name, format, seed in
            let file = ScratchFile(url: scratch.appendingPathComponent("input.\(name)"))
            return FuzzTarget(
                name: "datasheets-\(name)", seeds: [[UInt8](seed)],
                dictionary: [
                    "{", "}", "[", "]", "\"", ",", "\n", "\r\n", "@graph", "@value", "@language", "|", " GRM",
                    "\u{FEFF}", "\u{00}", "\u{FF}", "<", ">", "</", "/>", "<!DOCTYPE", "&amp;", "<![CDATA[",
                    "languageCode=\"fi\"", "<tradeItem>", "</tradeItem>", "<nutrientHeader>",
                ].map { [UInt8]($0) },
                run: { input in
                    file.write(input)
                    try? DatasheetImporter.read(path: file.url.path, format: format) { _ in true }
                })
        }
    }

    /// The datasheet rules are checked against in the `rules` target.
    static let sampleDatasheet: Datasheet = {
        let jsonl =
            #"{"gtin":"09506000134352","productName@fi":"Olut","percentageOfAlcoholByVolume":"4.7","netContent":"330 MLT"}"#
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-sample-\(getpid()).jsonl")
        _ = FileManager.default.createFile(atPath: url.path, contents: Data(jsonl.utf8))
        defer { try? FileManager.default.removeItem(at: url) }
        for record in (try? DatasheetImporter.readAll(path: url.path)) ?? [] {
            if case .datasheet(let datasheet, _) = record { return datasheet }
        }
        return Datasheet(attributes: [])
    }()
}
