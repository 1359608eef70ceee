import AuditService
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import SignedRequestHeaders

extension ServerState {
    // The signature headers' names, made once (a name is checked and lower-cased when made).
    private static let appField = HTTPField.Name(RequestSigning.appHeader)!
    private static let transactionField = HTTPField.Name(RequestSigning.transactionHeader)!
    private static let timestampField = HTTPField.Name(RequestSigning.timestampHeader)!
    private static let signatureField = HTTPField.Name(RequestSigning.signatureHeader)!

    /// The app id of a correctly signed, fresh, first-time request; a 401 problem otherwise (503
    /// when the replay guard is full).
    func verifySignature(_ request: Request, bodyDigest: SHA256Digest) throws -> String {
        // One pass over the headers; a repeated field's values are joined as `HTTPFields` joins
        // them, so the signed content type is the one the routes read.
        var appText: String?
        var transactionText: String?
        var timestampText: String?
        var signatureText: String?
        var contentType: String?
        for field in request.headers {
            switch field.name {
            case Self.appField: appText = Self.joined(appText, field.value)
            case Self.transactionField: transactionText = Self.joined(transactionText, field.value)
            case Self.timestampField: timestampText = Self.joined(timestampText, field.value)
            case Self.signatureField: signatureText = Self.joined(signatureText, field.value)
            case .contentType: contentType = Self.joined(contentType, field.value)
            default: continue
            }
        }
        let nowSeconds = now / 1_000_000
        let headers: SignedHeaders
        do {
            headers = try SignedHeaders.check(
                appID: appText, transactionID: transactionText, timestamp: timestampText, signature: signatureText,
                nowSeconds: nowSeconds, windowSeconds: configuration.signatureWindow.components.seconds)
        } catch {
            throw Problem.unauthorized(error.code, error.message, remedy: error.remedy)
        }
        let appID = headers.appID
        guard let app = service.identity.app(appID) else {
            throw Problem.unauthorized(
                "app-unknown", "no app '\(appID)' is registered", remedy: "register it: itemaudit apps add")
        }
        guard !app.revoked else {
            throw Problem.unauthorized(
                "app-revoked", "app '\(appID)' was revoked", remedy: "register the device again: itemaudit apps add")
        }
        let secret: [UInt8]
        do {
            guard let opened = try service.secret(ofApp: appID) else {
                throw Problem.unauthorized("app-revoked", "app '\(appID)' was revoked", remedy: "register it again")
            }
            secret = opened
        } catch let error as AuditServiceError {
            logger.error("cannot open an app secret", metadata: ["app": "\(appID)", "error": "\(error.code)"])
            throw Problem(
                .internalServerError, "app-secret-unreadable", "the server cannot read this app's secret",
                remedy: "ask the operator to check the data directory's key file")
        }
        var mac = signingKeys.hmac(appID: appID, secret: secret)
        mac.update(
            data: RequestSigning.canonicalBytes(
                method: request.method.rawValue, pathAndQuery: request.uri.description,
                timestamp: headers.timestampText, transactionID: headers.transactionID, bodyDigest: bodyDigest,
                contentType: contentType))
        guard RequestSigning.matches(mac.finalize(), hex: headers.signature) else {
            throw Problem.unauthorized(
                "signature-invalid",
                "the signature does not match the method, path, query, timestamp, transaction id, body and content type",
                remedy: "sign exactly the bytes and the Content-Type sent, with this app's secret")
        }
        switch replays.firstUse(
            appID: appID, transactionID: headers.transactionID, timestamp: headers.timestamp, now: nowSeconds)
        {
        case .first:
            return appID
        case .replayed:
            throw Problem.unauthorized(
                "transaction-replayed", "transaction id '\(headers.transactionID)' was already used",
                remedy:
                    "use a new transaction id for every request (resending commands is safe: their command ids stay)")
        case .full:
            var problem = Problem(
                .serviceUnavailable, "replay-guard-full",
                "the server remembers too many recent transaction ids to take another",
                remedy: "retry in a minute; the ids of requests older than the signature window are forgotten")
            problem.retryAfter = 60
            throw problem
        }
    }

    /// A header's values so far with one more, joined as `HTTPFields` joins a repeated field.
    private static func joined(_ earlier: String?, _ value: String) -> String {
        earlier.map { $0 + ", " + value } ?? value
    }
}
