import Foundation

extension ReceptionRow {
    /// What the manufacturer is told happens next: the printable acknowledgement and its e-mail
    /// say the same.
    public var acknowledgementNote: String {
        replacementRequested
            ? "The sample arrived damaged and cannot be inspected: please send a replacement sample to inspection centre \(locationID), quoting reception \(receptionID)."
            : "The sample arrived in good condition and is queued for its new-product inspection."
    }
}

/// The manufacturer's acknowledgement of one reception as an Internet message (RFC 5322), for
/// the machine's `sendmail -t -i`: the recipient is in the `To` header only, never on a command
/// line that other users of the machine could list.
public struct AcknowledgementMail: Sendable, Hashable {
    /// The reception it acknowledges (what logs name: never the address).
    public var receptionID: String
    /// The message: headers, a blank line, the text; lines end in CRLF.
    public var message: String

    /// The acknowledgement of `reception` to `recipient` (an address ``ManufacturerContact``
    /// accepted), dated `date`.
    public init(reception row: ReceptionRow, recipient: String, date: Date) {
        receptionID = row.receptionID
        let product = row.productName.isEmpty ? row.gtin : "\(row.productName) (\(row.gtin))"
        var lines = [
            "To: \(recipient)",  // a plain address: ManufacturerContact refused anything else
            "Date: " + Self.dateText(date),
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: 8bit",
            "Auto-Submitted: auto-generated",
            "",
            "Dear \(row.manufacturer.isEmpty ? "manufacturer" : row.manufacturer),",
            "",
            "we have received your sample at inspection centre \(row.locationID).",
            "",
            "Product: \(product)",
            "Reception: \(row.receptionID)",
            "Received: \(row.receivedAt.iso8601)",
            "Condition: \(row.conditionLabel)",
        ]
        if let before = row.inspectBefore { lines.append("Inspect before: \(before.iso8601)") }
        lines += ["After inspection: \(row.decommissionLabel)", "", row.acknowledgementNote, ""]
        let subject = "Subject: " + Self.headerText("Sample received: \(product), reception \(row.receptionID)")
        message = ([lines[0], subject] + lines.dropFirst().map(Self.singleLine)).joined(separator: "\r\n") + "\r\n"
    }

    /// A value with its line breaks and other control characters made spaces: data from a
    /// datasheet or a device must not start a header or end the headers.
    static func singleLine(_ text: String) -> String {
        String(
            String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
    }

    /// A header's text: as it is when ASCII, else an RFC 2047 encoded word (UTF-8, base64).
    static func headerText(_ text: String) -> String {
        let line = singleLine(text)
        guard !line.utf8.allSatisfy({ $0 < 0x80 }) else { return line }
        // Encoded words of at most 75 characters (40 bytes of text each, whole characters),
        // folded onto lines of their own.
        var words: [String] = []
        var chunk = ""
        for character in line {
            if chunk.utf8.count + character.utf8.count > 40 {
                words.append("=?utf-8?B?" + Data(chunk.utf8).base64EncodedString() + "?=")
                chunk = ""
            }
            chunk.append(character)
        }
        if !chunk.isEmpty { words.append("=?utf-8?B?" + Data(chunk.utf8).base64EncodedString() + "?=") }
        return words.joined(separator: "\r\n ")
    }

    static func dateText(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: date)
    }
}
