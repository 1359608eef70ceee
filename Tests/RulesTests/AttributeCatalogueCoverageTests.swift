import Datasheets
import Testing

@testable import Rules

/// The attribute catalogue (`Schemas/attributes/`) must name, group and explain every attribute the
/// inspector is asked about: every term a built-in rule reads and every term the generator writes.
@Suite("Attribute catalogue coverage")
struct AttributeCatalogueCoverageTests {
    /// The catalogue term of a rule path (`measured.fatPerNutrientBasis` → `fatPerNutrientBasis`,
    /// `hasAllergen[$].allergenLevelOfContainmentCode` → `allergenLevelOfContainmentCode`).
    static func terms(ofRulePath path: String) -> [String] {
        let parts = AttributePath(path)
        var terms = [String(parts.term)]
        if let member = parts.member { terms.append(String(AttributePath(String(member)).term)) }
        return terms.filter { !$0.isEmpty && $0 != "$" }
    }

    @Test("every term a built-in rule reads is in the catalogue, with names and an instruction in en, fi and sv")
    func ruleTermsCatalogued() throws {
        let engine = try BuiltInRuleSets.engine(subject: nil)
        var read: Set<String> = []
        for set in engine.ruleSets {
            for rule in set.rules {
                for path in [rule.attribute] + rule.reads { read.formUnion(Self.terms(ofRulePath: path)) }
            }
        }
        #expect(read.count > 40, "the rules read \(read.count) terms; the walk over the rules is broken")
        let missing = read.subtracting(AttributeCatalog.terms).sorted()
        #expect(missing == [], "add these terms to Schemas/attributes/catalogue.txt")
        for term in read.sorted() {
            guard let entry = AttributeCatalog.entries[term] else { continue }
            #expect(AttributeCatalog.group(of: term).identifier == entry.group)
            for language in CatalogueLanguage.allCases {
                #expect(!AttributeCatalog.instruction(for: term, in: language).isEmpty)
                #expect(!entry.names(language).isEmpty)
            }
        }
    }

    @Test("every term the datasheet generator writes is in the catalogue")
    func generatorTermsCatalogued() {
        var generator = DatasheetGenerator(seed: 11)
        var written: Set<String> = []
        for _ in 0..<300 {
            for attribute in generator.next().attributes {
                written.formUnion(Self.terms(ofRulePath: attribute.path))
            }
        }
        #expect(written.count > 50)
        #expect(written.subtracting(AttributeCatalog.terms).sorted() == [])
    }

    @Test("a vocabulary term the catalogue does not list is named by its English label, in group other")
    func fallback() {
        #expect(AttributeCatalog.entries["sportingActivityType"] == nil)
        #expect(AttributeCatalog.name(ofTerm: "sportingActivityType", in: .fi) == "Sporting Activity Type")
        #expect(AttributeCatalog.group(of: "sportingActivityType").identifier == "other")
        #expect(AttributeCatalog.name(ofTerm: "noSuchTermAtAll", in: .en) == "No such term at all")
    }

    @Test("groups are in inspection order, other last; names differ by language")
    func groupsAndNames() {
        #expect(AttributeCatalog.groups.first?.identifier == "identification")
        #expect(AttributeCatalog.groups.map(\.sequenceNumber) == Array(1...AttributeCatalog.groups.count))
        #expect(AttributeCatalog.other.sequenceNumber == AttributeCatalog.groups.count + 1)
        #expect(AttributeCatalog.name(of: "netContent", in: .en) == "Net quantity")
        #expect(AttributeCatalog.name(of: "netContent", in: .fi) == "Nettomäärä")
        #expect(AttributeCatalog.name(of: "netContent", in: .sv) == "Nettokvantitet")
        #expect(
            AttributeCatalog.name(of: "hasAllergen[AM].allergenLevelOfContainmentCode", in: .en)
                == "Containment level AM")
        #expect(AttributeCatalog.entries["allergenLevelOfContainmentCode"]?.parent == "hasAllergen")
        #expect(AttributeCatalog.entries["netContent"]?.measured == true)
        #expect(AttributeCatalog.instruction(for: "netContent", in: .en).contains("76/211/EEC"))
        #expect(AttributeCatalog.instruction(for: "inPackageHeight", in: .en).contains("GS1 Package Measurement Rules"))
    }

    @Test("Accept-Language picks the supported language with the highest weight, English otherwise")
    func acceptLanguage() {
        #expect(CatalogueLanguage(acceptLanguage: nil) == .en)
        #expect(CatalogueLanguage(acceptLanguage: "fi-FI") == .fi)
        #expect(CatalogueLanguage(acceptLanguage: "de, sv;q=0.5, fi;q=0.8") == .fi)
        #expect(CatalogueLanguage(acceptLanguage: "de, fr;q=0.9") == .en)
        #expect(CatalogueLanguage(acceptLanguage: "fi;q=0, sv") == .sv)
    }
}
