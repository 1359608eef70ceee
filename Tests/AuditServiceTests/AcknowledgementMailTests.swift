import Foundation
import Testing

@testable import AuditService

/// The acknowledgement's message: a contact a datasheet gives is used only when it is one plain
/// address, and nothing from a datasheet or a device can add a header.
@Suite struct AcknowledgementMessageTests {
    static func row(name: String = "Kaurajuoma", manufacturer: String = "Kaura Oy", damaged: Bool = false)
        -> ReceptionRow
    {
        // As the API answers it (the row's memberwise initializer is the read model's own).
        let json: [String: Any] = [
            "receptionID": "RC-1", "gtin": "06410000030012", "productName": name, "manufacturer": manufacturer,
            "locationID": "C1", "receivedBy": "rec", "receivedAt": "2026-06-01T08:00:00Z",
            "condition": damaged ? 1 : 0, "conditionLabel": damaged ? "damaged" : "good", "priority": 0,
            "priorityLabel": "normal", "decommission": 0, "decommissionLabel": "donate", "storageLocation": "S-1",
            "replacementRequested": damaged,
        ]
        let data = try! JSONSerialization.data(withJSONObject: json)
        return try! JSONDecoder().decode(ReceptionRow.self, from: data)
    }

    @Test(
        "the first plain address of a contact point is used; anything that could add a recipient or a header is not",
        arguments: [
            ("quality@maker.example", "quality@maker.example"),
            ("mailto:quality@maker.example", "quality@maker.example"),
            ("call us | quality@maker.example", "quality@maker.example"),
            ("a@b.example\r\nBcc: x@evil.example", nil),
            ("a@b.example, x@evil.example", nil),
            ("Quality <q@maker.example>", nil),
            ("no-at-sign.example", nil),
            ("a@localhost", nil),
        ] as [(String, String?)])
    func contactAddress(_ value: String, _ expected: String?) {
        #expect(ManufacturerContact.email(in: value) == expected)
    }

    @Test("a product name with line breaks stays in the subject; a non-ASCII subject is encoded")
    func noHeaderInjection() throws {
        let mail = AcknowledgementMail(
            reception: Self.row(name: "Oat\r\nBcc: x@evil.example", manufacturer: "Kaura\nOy"),
            recipient: "q@maker.example", date: Date(timeIntervalSince1970: 0))
        let headers = try #require(mail.message.components(separatedBy: "\r\n\r\n").first)
        #expect(!headers.contains("\r\nBcc:") && !mail.message.contains("\nBcc:"), "\(mail.message)")
        #expect(headers.hasPrefix("To: q@maker.example\r\nSubject: Sample received: Oat  Bcc: x@evil.example"))
        #expect(headers.contains("Date: Thu, 01 Jan 1970 00:00:00 +0000"))
        let finnish = AcknowledgementMail(
            reception: Self.row(name: "Ruisleipä täysjyvä ja kaura, erittäin pitkä nimi"), recipient: "q@maker.example",
            date: Date(timeIntervalSince1970: 0))
        let subject = try #require(finnish.message.components(separatedBy: "\r\nDate:").first)
        #expect(subject.contains("Subject: =?utf-8?B?") && subject.utf8.allSatisfy { $0 < 0x80 })
        for line in subject.components(separatedBy: "\r\n") { #expect(line.utf8.count <= 78, "\(line)") }
    }

    @Test("a damaged sample's acknowledgement asks for a replacement; a good one says it is queued")
    func wording() {
        #expect(Self.row(damaged: true).acknowledgementNote.contains("please send a replacement sample"))
        #expect(Self.row().acknowledgementNote.contains("queued for its new-product inspection"))
    }
}
