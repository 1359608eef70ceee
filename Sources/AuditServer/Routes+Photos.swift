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

extension Routes {
    /// `GET /v1/photos/{sha256}?size=thumb|view|full`: a stored photo, resized by the server for
    /// `thumb` and `view`, the stored bytes for `full` (the default). The `ETag` names the hash and
    /// the size, so a device revalidating gets 304 without a resize. An inspector gets only the
    /// photos of their own tasks and the reference images of their tasks' products; any other is
    /// "not found", so the answer does not tell whether a colleague took it.
    func sizedPhoto(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let user = try context.requireUser()
        guard let sha256 = context.parameters.get("sha256"),
            sha256.utf8.count == 64, sha256.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
        else {
            throw Problem.badRequest(
                "invalid-hash", "the path must end in the photo's SHA-256 as 64 lower-case hex digits",
                remedy: "GET /v1/photos/<sha256>?size=thumb")
        }
        let sizeText = request.uri.queryParameters["size"].map(String.init) ?? PhotoSize.full.rawValue
        guard let size = PhotoSize(rawValue: sizeText) else {
            throw Problem.badRequest(
                "invalid-size", "size must be thumb, view or full",
                remedy: "GET /v1/photos/<sha256>?size=thumb (256 px), view (1280 px) or full (the stored bytes)")
        }
        let notFound = Problem.notFound(
            "no stored photo with that hash that you may see (it may not be uploaded yet)",
            remedy: "use a photo hash from one of your tasks")
        // Stored first: only a real photo's hash costs the search of the inspector's work.
        guard service.photos.contains(sha256: sha256) else { throw notFound }
        if PermissionTable.isLimitedToOwnWork(user.roles) {
            var allowed = await service.isPhotoAttached(sha256: sha256, byInspector: user.username)
            if !allowed { allowed = await service.isReferenceImage(sha256: sha256, ofTasksOf: user.username) }
            guard allowed else { throw notFound }
        }
        let etag = "\"\(sha256)-\(size.rawValue)\""
        var headers = HTTPFields()
        headers[.eTag] = etag
        headers[.cacheControl] = CachePolicy.privateImmutable.headerValue
        if let match = request.headers[.ifNoneMatch], Self.matches(match, etag) {
            return Response(status: .notModified, headers: headers)
        }
        let photo: AuditService.SizedPhoto?
        do {
            photo = try await service.sizedPhoto(sha256: sha256, size: size)
        } catch {
            // The call throws only PhotoResizeError (typed), so `error` is one.
            throw Self.problem(error)
        }
        guard let photo else { throw notFound }
        headers[.contentType] = photo.mediaType
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: photo.bytes)))
    }

    /// Whether an `If-None-Match` value (a list of tags, or `*`) names `etag`; weak tags compare equal.
    static func matches(_ ifNoneMatch: String, _ etag: String) -> Bool {
        ifNoneMatch.split(separator: ",").contains { candidate in
            var tag = candidate.trimmingCharacters(in: .whitespaces)
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == "*" || tag == etag
        }
    }

    /// The answer for a photo that cannot be served at the size asked.
    static func problem(_ error: PhotoResizeError) -> Problem {
        switch error {
        case .unsupportedFormat:
            Problem(
                .unsupportedMediaType, "photo-format-unsupported", error.message,
                remedy: "upload the photo again as JPEG, PNG or HEIC")
        case .tooManyPixels:
            Problem(.unprocessableContent, "photo-too-large", error.message, remedy: "ask for size=full")
        case .busy:
            Problem(.serviceUnavailable, "photo-resizes-busy", error.message, remedy: "retry after Retry-After seconds")
                .retrying(after: 1)
        case .failed:
            Problem(.unprocessableContent, "photo-unreadable", error.message, remedy: "ask for size=full")
        }
    }
}

extension Problem {
    /// This problem telling the client when to try again.
    fileprivate func retrying(after seconds: Int) -> Problem {
        var problem = self
        problem.retryAfter = seconds
        return problem
    }
}
