import AuditService
import Crypto
import Foundation
import HTTPTypes
import Hummingbird

extension ServerState {
    // The signature headers' names, made once (a name is checked and lower-cased when made): the
    // app id, the transaction id, the timestamp and the signature.
    static let signatureFields = [
        RequestSigning.appHeader, RequestSigning.transactionHeader, RequestSigning.timestampHeader,
        RequestSigning.signatureHeader,
    ].map { HTTPField.Name($0)! }

    /// The app id of a correctly signed, fresh, first-time request; a 401 problem otherwise.
    func verifySignature(_ request: Request, bodyDigest: SHA256Digest) throws -> String {
        // One pass over the headers (a lookup by name walks them and joins repeated values).
        var found: [String?] = [nil, nil, nil, nil]
        for field in request.headers {
            guard let slot = Self.signatureFields.firstIndex(of: field.name) else { continue }
            found[slot] = found[slot].map { $0 + ", " + field.value } ?? field.value
        }
        func header(_ slot: Int) throws -> String {
            guard let value = found[slot], !value.isEmpty else {
                throw Problem.unauthorized(
                    "signature-missing", "the request has no \(Self.signatureFields[slot].rawName) header",
                    remedy: "sign every request: see `itemaudit sign --help`")
            }
            return value
        }
        let appID = try header(0)
        let transactionID = try header(1)
        let timestampText = try header(2)
        let signature = try header(3)
        guard transactionID.utf8.count <= 128 else {
            throw Problem.unauthorized(
                "transaction-invalid", "the transaction id is longer than 128 characters", remedy: "send a UUID")
        }
        let nowSeconds = now / 1_000_000
        let window = configuration.signatureWindow.components.seconds
        guard let timestamp = Int64(timestampText) else {
            throw Problem.unauthorized(
                "signature-stale", "the timestamp '\(timestampText)' is not Unix seconds",
                remedy: "send the device clock as whole seconds since 1970")
        }
        guard abs(nowSeconds - timestamp) <= window else {
            throw Problem.unauthorized(
                "signature-stale",
                "the request was signed at \(timestamp), \(nowSeconds - timestamp) s from the server clock (window \(window) s)",
                remedy: "set the device clock, sign again and resend")
        }
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
                method: request.method.rawValue, pathAndQuery: request.uri.description, timestamp: timestampText,
                transactionID: transactionID, bodyDigest: bodyDigest))
        guard RequestSigning.matches(mac.finalize(), hex: signature) else {
            throw Problem.unauthorized(
                "signature-invalid",
                "the signature does not match the method, path, query, timestamp, transaction id and body",
                remedy: "sign exactly the bytes sent, with this app's secret")
        }
        guard replays.firstUse(appID: appID, transactionID: transactionID, now: nowSeconds) else {
            throw Problem.unauthorized(
                "transaction-replayed", "transaction id '\(transactionID)' was already used",
                remedy:
                    "use a new transaction id for every request (resending commands is safe: their command ids stay)")
        }
        return appID
    }
}
