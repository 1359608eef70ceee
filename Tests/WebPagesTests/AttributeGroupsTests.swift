import AuditService
import Testing

@testable import WebPages

/// The dashboard's failures by attribute group use the attribute catalogue's groups, the ones the
/// inspector's device shows, not the rule sets (which put most attributes in "other").
@Suite("Failures by attribute group")
struct AttributeGroupsTests {
    @Test("attributes go to their catalogue group; a term the catalogue does not list to other")
    func catalogueGroups() {
        let groups = AttributeGroups.shared
        #expect(groups.group(of: "fatPerNutrientBasis") == "nutrition")
        #expect(groups.group(of: "measured.inPackageHeight") == "quantity")
        #expect(groups.group(of: "hasAllergen[AM].allergenLevelOfContainmentCode") == "ingredients")
        #expect(groups.group(of: "productName@fi") == "naming")
        #expect(groups.group(of: "inPackageHeight") == "quantity")
        #expect(groups.group(of: "sportingActivityType") == "other")
        #expect(groups.title(of: "quantity") == "Quantity and measurements")
    }

    @Test("counts are summed by group, most failures first")
    func summed() {
        let counts = [
            AttributeFailureCount(attribute: "fatPerNutrientBasis", failures: 2, warnings: 1),
            AttributeFailureCount(attribute: "sugarsPerNutrientBasis", failures: 3, warnings: 0),
            AttributeFailureCount(attribute: "netContent", failures: 1, warnings: 4),
        ]
        let grouped = AttributeGroups.shared.group(counts)
        #expect(grouped.map(\.name) == ["nutrition", "quantity"])
        #expect(grouped.first?.failures == 5 && grouped.first?.warnings == 1)
    }
}
