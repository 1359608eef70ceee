import Crypto
import Foundation
import SignedRequestHeaders

/// How a device signs a request, and how the server checks it.
///
/// The signed text is six lines: the method, the path with its query exactly as sent, the
/// timestamp (Unix seconds), the transaction id, the lower-case hex SHA-256 of the body, and the
/// media type of the `Content-Type` header (lower-cased, without parameters; empty without one):
///
///     POST
///     /v1/commands?wait=1
///     1767225600
///     3f0c2a9e-…
///     e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
///     application/json
///
/// The signature is the lower-case hex HMAC-SHA256 of that text with the app's secret, sent with
/// the app id, the timestamp and the transaction id in the four headers below. The media type is
/// signed because the server reads a body by it: unsigned, a captured body could be replayed as
/// another format.
public enum RequestSigning {
    /// The app id header.
    public static let appHeader = SignedHeaders.appHeader
    /// The transaction id header (unique per request and app).
    public static let transactionHeader = SignedHeaders.transactionHeader
    /// The timestamp header (Unix seconds).
    public static let timestampHeader = SignedHeaders.timestampHeader
    /// The signature header (hex HMAC-SHA256).
    public static let signatureHeader = SignedHeaders.signatureHeader

    /// The text that is signed; `mediaType` as ``mediaType(_:)`` makes it.
    public static func canonical(
        method: String, pathAndQuery: String, timestamp: String, transactionID: String, bodySHA256: String,
        mediaType: String
    ) -> String {
        "\(method)\n\(pathAndQuery)\n\(timestamp)\n\(transactionID)\n\(bodySHA256)\n\(mediaType)"
    }

    /// The media type a Content-Type header names (`image/jpeg` of `Image/JPEG; q=1`): before any
    /// parameters, without surrounding spaces or tabs, ASCII letters lower-cased; empty when there
    /// is none. What is signed, and what the routes read a body by.
    public static func mediaType(_ contentType: String?) -> String {
        var bytes: [UInt8] = []
        appendMediaType(of: contentType, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// ``mediaType(_:)`` appended to `out`, without a string in between (the server signs every
    /// request's). Only ASCII letters change case, so the bytes are the header's own otherwise.
    static func appendMediaType(of contentType: String?, to out: inout [UInt8]) {
        guard var type = contentType?.utf8.prefix(while: { $0 != UInt8(ascii: ";") }) else { return }
        while let first = type.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
            type = type.dropFirst()
        }
        while let last = type.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { type = type.dropLast() }
        for byte in type { out.append(byte >= 65 && byte <= 90 ? byte | 0x20 : byte) }
    }

    /// Lower-case hex SHA-256 of `body`.
    public static func bodyHash(_ body: UnsafeRawBufferPointer) -> String { hex(SHA256.hash(data: body)) }

    /// Lower-case hex SHA-256 of `body`.
    public static func bodyHash(_ body: [UInt8]) -> String { body.withUnsafeBytes { bodyHash($0) } }

    /// The hex signature of a request; `mediaType` as ``mediaType(_:)`` makes it.
    public static func signature(
        secret: [UInt8], method: String, pathAndQuery: String, timestamp: String, transactionID: String,
        bodySHA256: String, mediaType: String
    ) -> String {
        let text = canonical(
            method: method, pathAndQuery: pathAndQuery, timestamp: timestamp, transactionID: transactionID,
            bodySHA256: bodySHA256, mediaType: mediaType)
        return hex(HMAC<SHA256>.authenticationCode(for: Array(text.utf8), using: SymmetricKey(data: secret)))
    }

    /// ``canonical(method:pathAndQuery:timestamp:transactionID:bodySHA256:mediaType:)`` as bytes,
    /// hashing `body` itself and taking the media type of `contentType` (the header as sent): what
    /// a signer signs, without the strings in between.
    static func canonicalBytes(
        method: String, pathAndQuery: String, timestamp: String, transactionID: String, body: some Sequence<UInt8>,
        contentType: String?
    ) -> [UInt8] {
        var hasher = SHA256()
        body.withContiguousStorageIfAvailable { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
            ?? hasher.update(data: Array(body))
        return canonicalBytes(
            method: method, pathAndQuery: pathAndQuery, timestamp: timestamp, transactionID: transactionID,
            bodyDigest: hasher.finalize(), contentType: contentType)
    }

    /// The same bytes for a body whose SHA-256 is known: what the server checks (it keeps the
    /// digest for a photo's upload).
    static func canonicalBytes(
        method: String, pathAndQuery: String, timestamp: String, transactionID: String, bodyDigest: SHA256Digest,
        contentType: String?
    ) -> [UInt8] {
        var text: [UInt8] = []
        text.reserveCapacity(
            method.utf8.count + pathAndQuery.utf8.count + timestamp.utf8.count + transactionID.utf8.count + 70
                + (contentType?.utf8.count ?? 0))
        for part in [method, pathAndQuery, timestamp, transactionID] {
            text.append(contentsOf: part.utf8)
            text.append(UInt8(ascii: "\n"))
        }
        appendHex(bodyDigest, to: &text)
        text.append(UInt8(ascii: "\n"))
        appendMediaType(of: contentType, to: &text)
        return text
    }

    /// Whether `mac` is what the hex text `signature` (either case) spells, in time independent
    /// of where they differ.
    static func matches(_ mac: HashedAuthenticationCode<SHA256>, hex signature: String) -> Bool {
        var expected: [UInt8] = []
        appendHex(mac, to: &expected)
        var difference: UInt8 = 0
        var count = 0
        for byte in signature.utf8 {
            guard count < expected.count else { return false }
            // ASCII letters lower-cased; other bytes are left alone and differ from every hex digit.
            difference |= expected[count] ^ (byte >= 65 && byte <= 90 ? byte | 0x20 : byte)
            count += 1
        }
        return count == expected.count && difference == 0
    }

    /// The four headers of a signed request, in order, then `Content-Type: contentType` when
    /// there is one: send exactly these (the signature covers the content type's media type).
    public static func headers(
        appID: String, secret: [UInt8], method: String, pathAndQuery: String, body: [UInt8], contentType: String?,
        timestamp: Int64, transactionID: String
    ) -> [(name: String, value: String)] {
        Signer(appID: appID, secret: secret).headers(
            method: method, pathAndQuery: pathAndQuery, body: body, contentType: contentType, timestamp: timestamp,
            transactionID: transactionID)
    }

    /// Signs one app's requests with its secret keyed once (hashing the key into the HMAC's pads
    /// costs more than signing a short request, and a device signs every request with one key).
    public struct Signer: @unchecked Sendable {
        // @unchecked: the keyed HMAC is only copied, never changed in place (its hash states are
        // copied on the first write to a shared one).
        private let keyed: HMAC<SHA256>
        /// The app whose secret signs.
        public let appID: String

        /// A signer for `appID` with `secret`.
        public init(appID: String, secret: [UInt8]) {
            self.appID = appID
            keyed = HMAC<SHA256>(key: SymmetricKey(data: secret))
        }

        /// The four headers of the request, then `Content-Type: contentType` when there is one,
        /// as ``RequestSigning/headers(appID:secret:method:pathAndQuery:body:contentType:timestamp:transactionID:)``
        /// makes them.
        public func headers(
            method: String, pathAndQuery: String, body: [UInt8], contentType: String?, timestamp: Int64,
            transactionID: String
        ) -> [(name: String, value: String)] {
            let time = String(timestamp)
            return signed(
                canonicalBytes(
                    method: method, pathAndQuery: pathAndQuery, timestamp: time, transactionID: transactionID,
                    body: body, contentType: contentType),
                time: time, transactionID: transactionID, contentType: contentType)
        }

        /// The same headers for a body whose SHA-256 (lower-case hex) the caller already has.
        public func headers(
            method: String, pathAndQuery: String, bodySHA256: String, contentType: String?, timestamp: Int64,
            transactionID: String
        ) -> [(name: String, value: String)] {
            let time = String(timestamp)
            let text = canonical(
                method: method, pathAndQuery: pathAndQuery, timestamp: time, transactionID: transactionID,
                bodySHA256: bodySHA256, mediaType: mediaType(contentType))
            return signed(Array(text.utf8), time: time, transactionID: transactionID, contentType: contentType)
        }

        /// The four headers, with the signature of the canonical `text`, and the content type it signed.
        private func signed(_ text: [UInt8], time: String, transactionID: String, contentType: String?) -> [(
            name: String, value: String
        )] {
            var mac = keyed
            mac.update(data: text)
            var headers = [
                (name: appHeader, value: appID), (transactionHeader, transactionID), (timestampHeader, time),
                (signatureHeader, hex(mac.finalize())),
            ]
            if let contentType { headers.append(("Content-Type", contentType)) }
            return headers
        }
    }

    /// The secret bytes of a hex secret as `apps add` prints it, or nil.
    public static func secret(hex text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 32, utf8.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 2)
        for index in stride(from: 0, to: utf8.count, by: 2) {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    /// Whether two hex strings are equal, in time independent of where they differ.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: c - 48
        case 97...102: c - 87
        case 65...70: c - 55
        default: nil
        }
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        var out: [UInt8] = []
        appendHex(bytes, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private static func appendHex(_ bytes: some Sequence<UInt8>, to out: inout [UInt8]) {
        let digits: StaticString = "0123456789abcdef"
        digits.withUTF8Buffer { digits in
            for byte in bytes {
                out.append(digits[Int(byte >> 4)])
                out.append(digits[Int(byte & 15)])
            }
        }
    }
}
