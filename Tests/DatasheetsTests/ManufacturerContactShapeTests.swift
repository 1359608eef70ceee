import Testing

@testable import Datasheets

/// The manufacturer's e-mail contact (#41: the acknowledgement of a received sample is mailed to
/// it) as GS1 Web Vocabulary JSON-LD carries it: `gs1:manufacturer` → `gs1:contactPoint`
/// (`gs1:ContactPoint`) → `gs1:email`, flattened to `manufacturer.contactPoint.email`.
@Suite("The manufacturer's contact point")
struct ManufacturerContactShapeTests {
    @Test("a contact point's e-mail flattens under the manufacturer; several join with |")
    func contactPointEmail() throws {
        let one = try ClassShapeTests.flat(
            #""manufacturer": {"@type": "gs1:Organization", "organizationName": "Kaura Oy", "contactPoint": {"@type": "gs1:ContactPoint", "contactType": "Quality", "email": "quality@kaura.example"}}"#
        )
        #expect(one["manufacturer.contactPoint.email"] == "quality@kaura.example")
        let two = try ClassShapeTests.flat(
            #""gs1:manufacturer": {"gs1:contactPoint": [{"gs1:email": "a@kaura.example"}, {"gs1:email": "b@kaura.example"}]}"#
        )
        #expect(two["manufacturer.contactPoint.email"] == "a@kaura.example|b@kaura.example")
    }
}
