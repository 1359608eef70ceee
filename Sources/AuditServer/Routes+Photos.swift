import AuditService
import Foundation
import HTTPTypes
import Hummingbird
import NIOPosix

extension Routes {
    struct PhotoStored: Encodable {
        var sha256: String
        var byteCount: Int
        var contentType: String
        /// False when the same image was already stored.
        var isNew: Bool

        /// The answer's JSON, as `JSONEncoder` with sorted keys writes it (every photo uploaded
        /// gets one; `AnswerEncodingTests` compares the two).
        func json() -> ByteBuffer {
            var text = JSONText(capacity: 160)
            text.beginObject()
            text.member("byteCount", byteCount)
            text.member("contentType", contentType)
            text.member("isNew", isNew)
            text.member("sha256", sha256)
            text.endObject()
            return text.buffer
        }
    }

    /// `PUT /v1/photos/{sha256}`: the raw image, before or after the `AttachPhoto` that names it.
    /// The bytes must hash to the path's SHA-256; stored content-addressed and synced before 201/200.
    func uploadPhoto(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        guard let sha256 = context.parameters.get("sha256"),
            sha256.utf8.count == 64, sha256.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
        else {
            throw Problem.badRequest(
                "invalid-hash", "the path must end in the photo's SHA-256 as 64 lower-case hex digits",
                remedy: "PUT /v1/photos/<sha256 of the bytes>")
        }
        let contentType = Self.mediaType(request.headers[.contentType])
        let buffer = try await request.body.collect(upTo: .max)
        let bytes = [UInt8](buffer: buffer)
        let store = service.photos
        do {
            // Over PostgreSQL storing blocks on its client: on the thread pool, not on one of the
            // two event loops that serve every connection. Into packs it waits for its group, and
            // uses the signature check's hash of these very bytes.
            let receipt =
                store.isInDatabase
                ? try await NIOThreadPool.singleton.runIfActive {
                    try store.store(bytes, contentType: contentType, sha256: sha256)
                }
                : try await store.store(bytes, contentType: contentType, sha256: sha256, digest: context.bodyDigest)
            let answer = PhotoStored(
                sha256: receipt.sha256, byteCount: receipt.byteCount, contentType: receipt.contentType,
                isNew: receipt.isNew)
            return Self.jsonResponse(answer.json(), status: receipt.isNew ? .created : .ok)
        } catch let error as AuditServiceError where error.code == .photoRejected {
            let mismatch = error.message.contains("hash to")
            throw Problem(
                mismatch ? .unprocessableContent : .badRequest, mismatch ? "photo-hash-mismatch" : "photo-rejected",
                error.message,
                remedy: mismatch ? "upload the bytes whose SHA-256 is in the path" : "send a JPEG, PNG or HEIC image")
        }
    }
}
