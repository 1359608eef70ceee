import AuditService
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

extension WebSite {
    /// `GET /photos/{sha256}`: a stored photo with its type, cached privately (its name is its
    /// hash). An inspector gets only the photos of their own tasks; any other is "not found", so
    /// the answer does not tell whether a colleague took it.
    func photo(_ context: ServerRequestContext, _ visitor: Visitor) async -> Response {
        let hash = context.parameters.get("sha256") ?? ""
        let notFound = WebSecurity.errorPage(.notFound, "No stored photo with that hash (it may not be uploaded yet).")
        // Stored first: only a real photo's hash costs the search of the inspector's work.
        guard server.service.photos.contains(sha256: hash) else { return notFound }
        if PermissionTable.isLimitedToOwnWork(visitor.user.roles),
            await !server.service.isPhotoAttached(sha256: hash, byInspector: visitor.user.username)
        {
            return notFound
        }
        guard let bytes = server.service.photos.read(sha256: hash) else { return notFound }
        var headers = WebSecurity.headers(contentType: Self.imageType(bytes))
        headers[.cacheControl] = CachePolicy.privateImmutable.headerValue
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// The image type of stored photo bytes (the store accepts only JPEG, PNG and HEIC).
    static func imageType(_ bytes: [UInt8]) -> String {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if bytes.count > 12, bytes[4..<8].elementsEqual(Array("ftyp".utf8)) { return "image/heic" }
        return "application/octet-stream"
    }
}
