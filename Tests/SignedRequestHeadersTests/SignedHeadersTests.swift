import Seeded
import Testing

@testable import SignedRequestHeaders

/// The signature headers' checks on their own: every refusal names its header and code, and no
/// value, however long or far off, traps (a trap would end the server).
@Suite("Signature headers")
struct SignedHeadersTests {
    static let now: Int64 = 1_772_438_400
    static let window: Int64 = 300
    static let transaction = "3f0c2a9e-5b1d-4c8e-9f3a-2d7b6e1c0a94"
    static let signature = "7a828e1fa29d2338ff2aa4d74136e9421ab12dfacac5a735a2492bb91c324004"

    /// The check with good values except those given.
    static func check(
        appID: String? = "app-1", transactionID: String? = transaction, timestamp: String? = String(now),
        signature: String? = signature, nowSeconds: Int64 = now, windowSeconds: Int64 = window
    ) -> Result<SignedHeaders, SignedHeaders.Refusal> {
        Result { () throws(SignedHeaders.Refusal) in
            try SignedHeaders.check(
                appID: appID, transactionID: transactionID, timestamp: timestamp, signature: signature,
                nowSeconds: nowSeconds, windowSeconds: windowSeconds)
        }
    }

    static func refusal(_ result: Result<SignedHeaders, SignedHeaders.Refusal>) -> SignedHeaders.Refusal? {
        if case .failure(let refusal) = result { refusal } else { nil }
    }

    @Test("good headers come back parsed, the timestamp text as sent")
    func accepted() throws {
        let headers = try Self.check(timestamp: "0001772438400", signature: Self.signature.uppercased()).get()
        #expect(headers.appID == "app-1")
        #expect(headers.transactionID == Self.transaction)
        #expect(headers.timestampText == "0001772438400")
        #expect(headers.timestamp == Self.now)
        #expect(headers.signature == Self.signature.uppercased())
    }

    @Test("a header that is absent or empty is missing, and the refusal names it")
    func missing() {
        let cases: [(Result<SignedHeaders, SignedHeaders.Refusal>, String)] = [
            (Self.check(appID: nil), SignedHeaders.appHeader), (Self.check(appID: ""), SignedHeaders.appHeader),
            (Self.check(transactionID: nil), SignedHeaders.transactionHeader),
            (Self.check(timestamp: ""), SignedHeaders.timestampHeader),
            (Self.check(signature: nil), SignedHeaders.signatureHeader),
        ]
        for (result, header) in cases {
            #expect(Self.refusal(result)?.code == "signature-missing")
            #expect(Self.refusal(result)?.message.contains(header) == true)
        }
    }

    @Test(
        "a timestamp that is not 1-19 digits up to Int64.max is refused, whatever its sign, spaces or size",
        arguments: [
            "-9223372036854775808", "-1", "+1772438400", " 1772438400", "1772438400 ", "1772438400, 1772438400",
            "9223372036854775808", "9999999999999999999", "18446744073709551616", "99999999999999999999",
            "00000000000000000001772438400", "1.7e9", "0x69A4C300", "١٧٧٢٤٣٨٤٠٠", "１７７２４３８４００",
            String(repeating: "9", count: 1 << 20),
        ])
    func timestampNotSeconds(text: String) {
        let refusal = Self.refusal(Self.check(timestamp: text))
        #expect(refusal?.code == "signature-stale")
        #expect(refusal?.message.contains(SignedHeaders.timestampHeader) == true)
        if text.count > 4 { #expect(refusal?.message.contains(text) == false, "a refused value is not echoed") }
    }

    @Test("the window: its edges pass, a second past them is stale, and Int64's extremes never trap")
    func window() {
        #expect(Self.refusal(Self.check(timestamp: String(Self.now - Self.window))) == nil)
        #expect(Self.refusal(Self.check(timestamp: String(Self.now + Self.window))) == nil)
        let behind = Self.refusal(Self.check(timestamp: String(Self.now - Self.window - 1)))
        #expect(behind?.code == "signature-stale")
        #expect(behind?.message.contains("301 s before the server clock") == true)
        let ahead = Self.refusal(Self.check(timestamp: String(Self.now + Self.window + 1)))
        #expect(ahead?.message.contains("301 s after the server clock") == true)
        #expect(Self.refusal(Self.check(timestamp: String(Int64.max)))?.code == "signature-stale")
        #expect(Self.refusal(Self.check(timestamp: "0"))?.code == "signature-stale")
        // The server clock at the extremes too: the difference overflows and is refused, not computed.
        let far = Self.refusal(Self.check(timestamp: String(Int64.max), nowSeconds: Int64.min))
        #expect(far?.message.contains("far from the server clock") == true)
        #expect(Self.refusal(Self.check(timestamp: "0", nowSeconds: Int64.max))?.code == "signature-stale")
        #expect(Self.refusal(Self.check(timestamp: String(Int64.max), nowSeconds: Int64.max)) == nil)
        #expect(Self.refusal(Self.check(timestamp: "0", nowSeconds: Int64.max, windowSeconds: Int64.max)) == nil)
        // A negative window is no window: only the same second passes.
        #expect(Self.refusal(Self.check(windowSeconds: Int64.min)) == nil)
        #expect(Self.refusal(Self.check(timestamp: String(Self.now - 1), windowSeconds: -5)) != nil)
    }

    @Test(
        "an app id is 1-64 letters, digits, '.', '_' or '-', as apps add accepts",
        arguments: [
            ("a", true), (String(repeating: "a", count: 64), true), ("app_1.x-Y", true),
            (String(repeating: "a", count: 65), false), ("app 1", false), ("app-1, app-2", false), ("app\n", false),
            ("app\u{0}", false), ("äpp", false), ("app/1", false), (String(repeating: "a", count: 1 << 20), false),
        ])
    func appID(text: String, valid: Bool) {
        let refusal = Self.refusal(Self.check(appID: text))
        #expect(refusal == nil ? valid : !valid && refusal?.code == "app-invalid")
        if let refusal { #expect(!refusal.message.contains(text)) }
    }

    @Test(
        "a transaction id is 1-128 letters, digits, '.', '_', ':' or '-'",
        arguments: [
            ("tx-1", true), (transaction, true), ("urn:uuid:\(transaction)", true),
            (String(repeating: "t", count: 128), true), (String(repeating: "t", count: 129), false),
            ("tx 1", false), ("tx-1, tx-2", false), ("tx\r", false), ("tx\u{7F}", false), ("tx/../1", false),
            ("tx\u{200B}", false), (String(repeating: "t", count: 1 << 20), false),
        ])
    func transactionID(text: String, valid: Bool) {
        let refusal = Self.refusal(Self.check(transactionID: text))
        #expect(refusal == nil ? valid : !valid && refusal?.code == "transaction-invalid")
    }

    @Test("a signature is 64 hex digits in either case; anything else is malformed before any comparison")
    func signatureText() {
        #expect(Self.refusal(Self.check(signature: Self.signature.uppercased())) == nil)
        for text in [
            String(Self.signature.dropLast()), Self.signature + "0", String(Self.signature.dropLast()) + "g",
            String(Self.signature.dropLast()) + " ", Self.signature + ", " + Self.signature,
            String(repeating: "0", count: 1 << 20),
        ] {
            #expect(Self.refusal(Self.check(signature: text))?.code == "signature-malformed")
        }
    }

    @Test("seeded random header values and clocks: every one is either parsed consistently or refused, no trap")
    func randomValues() {
        let seed: UInt64 = 0x5EED_0038
        var random = SeededRandom(seed: seed)
        let alphabet = Array("0123456789-+ ,:._abcdefABCDEFxyz\n\u{0}é٣".unicodeScalars)
        func text() -> String? {
            switch random.next() % 8 {
            case 0: return nil
            case 1: return String(random.next())
            case 2: return String(Int64(bitPattern: random.next()))
            default:
                let count = Int(random.next() % 80)
                return String(
                    String.UnicodeScalarView(
                        (0..<count).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }))
            }
        }
        for _ in 0..<20_000 {
            let timestamp = random.next() % 2 == 0 ? String(Self.now + Int64(random.next() % 700) - 350) : text()
            let now = random.next() % 4 == 0 ? Int64(bitPattern: random.next()) : Self.now
            let window = random.next() % 4 == 0 ? Int64(bitPattern: random.next()) : Self.window
            let result = Self.check(
                appID: random.next() % 2 == 0 ? "app-1" : text(), transactionID: random.next() % 2 == 0 ? "tx" : text(),
                timestamp: timestamp, signature: random.next() % 2 == 0 ? Self.signature : text(), nowSeconds: now,
                windowSeconds: window)
            if case .success(let headers) = result {
                #expect(Int64(headers.timestampText) == headers.timestamp, "seed \(seed)")
                #expect(headers.signature.utf8.count == 64, "seed \(seed)")
            }
        }
    }
}
