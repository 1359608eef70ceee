/// The four signature headers of a device request, checked before any of them is used.
///
/// A pure function of the header values and the server clock, so it can be fuzzed alone: every
/// length and value is bounded before any arithmetic, and no input traps.
///
///     let headers = try SignedHeaders.check(
///         appID: "app-1", transactionID: "3f0c2a9e-…", timestamp: "1767225600",
///         signature: "7a828e1f…", nowSeconds: 1_767_225_630, windowSeconds: 300)
///     headers.timestamp  // 1767225600
public struct SignedHeaders: Sendable, Equatable {
    /// The app id header.
    public static let appHeader = "X-ItemAudit-App"
    /// The transaction id header (unique per request and app).
    public static let transactionHeader = "X-ItemAudit-Transaction"
    /// The timestamp header (Unix seconds).
    public static let timestampHeader = "X-ItemAudit-Timestamp"
    /// The signature header (hex HMAC-SHA256).
    public static let signatureHeader = "X-ItemAudit-Signature"

    /// The longest app id: `apps add` accepts 1-64 letters, digits, '.', '_' or '-'.
    public static let appIDLimit = 64
    /// The longest transaction id (a UUID is 36).
    public static let transactionIDLimit = 128
    /// The most digits a timestamp has: 19 digits always fit in 64 bits unsigned.
    public static let timestampDigitLimit = 19
    /// The length of a hex HMAC-SHA256.
    public static let signatureLength = 64

    /// The app that signed.
    public let appID: String
    /// The transaction id: letters, digits, '.', '_', ':' or '-'.
    public let transactionID: String
    /// The timestamp as sent: it is what was signed.
    public let timestampText: String
    /// The timestamp in Unix seconds, within the window of the server clock.
    public let timestamp: Int64
    /// The signature: 64 hex digits, either case.
    public let signature: String

    /// Why the headers were refused: a stable code, what is wrong and what to do.
    public struct Refusal: Error, Sendable, Equatable {
        /// `signature-missing`, `app-invalid`, `transaction-invalid`, `signature-stale` or `signature-malformed`.
        public let code: String
        /// What is wrong, naming the header; never echoes a value that failed its check.
        public let message: String
        /// What the client should do.
        public let remedy: String
    }

    /// The headers when each is present and well formed and the timestamp is within
    /// `windowSeconds` of `nowSeconds` either way; the first refusal otherwise. A header is
    /// missing when nil or empty (repeated headers arrive joined, and then fail their check).
    public static func check(
        appID: String?, transactionID: String?, timestamp: String?, signature: String?, nowSeconds: Int64,
        windowSeconds: Int64
    ) throws(Refusal) -> SignedHeaders {
        let appID = try present(appID, appHeader)
        let transactionID = try present(transactionID, transactionHeader)
        let timestampText = try present(timestamp, timestampHeader)
        let signature = try present(signature, signatureHeader)
        guard appID.utf8.count <= appIDLimit, appID.utf8.allSatisfy(isNameByte) else {
            throw Refusal(
                code: "app-invalid",
                message: "the \(appHeader) header is not an app id (1-\(appIDLimit) letters, digits, '.', '_' or '-')",
                remedy: "send the app id `itemaudit apps add` printed")
        }
        guard transactionID.utf8.count <= transactionIDLimit,
            transactionID.utf8.allSatisfy({ isNameByte($0) || $0 == UInt8(ascii: ":") })
        else {
            throw Refusal(
                code: "transaction-invalid",
                message:
                    "the \(transactionHeader) header is not a transaction id (1-\(transactionIDLimit) letters, digits, '.', '_', ':' or '-')",
                remedy: "send a new UUID with every request")
        }
        let seconds = try parseSeconds(timestampText)
        try checkWindow(seconds, nowSeconds: nowSeconds, windowSeconds: windowSeconds)
        guard signature.utf8.count == signatureLength, signature.utf8.allSatisfy(isHexByte) else {
            throw Refusal(
                code: "signature-malformed",
                message: "the \(signatureHeader) header is not \(signatureLength) hex digits",
                remedy: "send the hex HMAC-SHA256 of the signed text: see `itemaudit sign --help`")
        }
        return SignedHeaders(
            appID: appID, transactionID: transactionID, timestampText: timestampText, timestamp: seconds,
            signature: signature)
    }

    private static func present(_ value: String?, _ name: String) throws(Refusal) -> String {
        guard let value, !value.isEmpty else {
            throw Refusal(
                code: "signature-missing", message: "the request has no \(name) header",
                remedy: "sign every request: see `itemaudit sign --help`")
        }
        return value
    }

    /// Unix seconds of 1 to 19 ASCII digits (no sign, no spaces) up to `Int64.max`, summed in
    /// 64 bits unsigned, where 19 digits cannot overflow.
    private static func parseSeconds(_ text: String) throws(Refusal) -> Int64 {
        var value: UInt64 = 0
        var digits = 0
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < timestampDigitLimit else {
                throw notUnixSeconds()
            }
            value = value * 10 + UInt64(byte - UInt8(ascii: "0"))
            digits += 1
        }
        guard value <= UInt64(Int64.max) else { throw notUnixSeconds() }
        return Int64(value)
    }

    private static func notUnixSeconds() -> Refusal {
        Refusal(
            code: "signature-stale",
            message:
                "the \(timestampHeader) header is not Unix seconds (1-\(timestampDigitLimit) digits, at most \(Int64.max))",
            remedy: "send the device clock as whole seconds since 1970")
    }

    /// Refuses a timestamp further than the window from now; the difference is computed only
    /// where it cannot overflow.
    private static func checkWindow(_ seconds: Int64, nowSeconds: Int64, windowSeconds: Int64) throws(Refusal) {
        let window = UInt64(max(0, windowSeconds))
        let (difference, overflow) = nowSeconds.subtractingReportingOverflow(seconds)
        if !overflow && difference.magnitude <= window { return }
        let distance =
            overflow ? "far from" : "\(difference.magnitude) s \(difference > 0 ? "before" : "after")"
        throw Refusal(
            code: "signature-stale",
            message: "the request was signed at \(seconds), \(distance) the server clock (window \(window) s)",
            remedy: "set the device clock, sign again and resend")
    }

    /// A letter, digit, '.', '_' or '-'.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default: false
        }
    }

    private static func isHexByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            true
        default: false
        }
    }
}
