import AuditService
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

@testable import AuditServer

/// `GET /v1/photos/{sha256}?size=`: a stored JPEG resized by libvips, revalidated by its ETag, and
/// seen by an inspector only when it is theirs or their task's product's reference image.
@Suite("Photo sizes")
struct PhotoSizesTests {
    static let gtin = ServerFixture.gtin(3)

    /// An ad-hoc task of ``gtin`` for `username`; returns its id.
    static func allocate(_ fixture: ServerFixture, _ client: some TestClientProtocol, _ username: String, token: String)
        async throws -> String
    {
        let allocated = try await fixture.send(
            client, .post, "/v1/commands",
            json: ServerFixture.bundle([
                #"{"commandID":"\#(username)-a","type":"AllocateAdHocTask","inspectorID":"\#(username)","locationID":"S1","gtin":"\#(gtin)"}"#
            ]),
            token: token)
        let outcome = try #require((try ServerFixture.object(allocated)["outcomes"] as? [[String: Any]])?.first)
        return try #require(outcome["createdID"] as? String, "\(outcome)")
    }

    /// A passed inspection of ``gtin`` by "inspector" with the JPEG attached; returns its hash.
    static func inspect(_ fixture: ServerFixture, _ client: some TestClientProtocol) async throws -> String {
        let token = try await fixture.login(client, "inspector")
        let taskID = try await allocate(fixture, client, "inspector", token: token)
        let photo = PhotoSizingTestsJPEG.bytes
        let sha = RequestSigning.bodyHash(photo)
        let uri = "/v1/photos/\(sha)"
        let stored = try await client.execute(
            uri: uri, method: .put,
            headers: fixture.headers(.put, uri, body: photo, token: token, contentType: "image/jpeg"),
            body: ByteBuffer(bytes: photo))
        #expect(stored.status == .created, "\(String(buffer: stored.body))")
        let verdicts = ServerFixture.attributes.map { #"{"path":"\#($0)","verdict":1}"# }.joined(separator: ",")
        let work = try await fixture.send(
            client, .post, "/v1/commands",
            json: ServerFixture.bundle([
                #"{"commandID":"s","type":"StartInspection","taskID":"\#(taskID)"}"#,
                #"{"commandID":"v","type":"RecordVerdicts","taskID":"\#(taskID)","verdicts":[\#(verdicts)]}"#,
                #"{"commandID":"p","type":"AttachPhoto","taskID":"\#(taskID)","sha256":"\#(sha)","byteCount":\#(photo.count),"contentType":"image/jpeg"}"#,
                #"{"commandID":"f","type":"FinishInspection","taskID":"\#(taskID)"}"#,
            ]),
            token: token)
        let outcomes = try #require(try ServerFixture.object(work)["outcomes"] as? [[String: Any]])
        #expect(outcomes.allSatisfy { $0["status"] as? String == "accepted" }, "\(outcomes)")
        return sha
    }

    static func get(
        _ fixture: ServerFixture, _ client: some TestClientProtocol, _ uri: String, token: String,
        ifNoneMatch: String? = nil
    ) async throws -> TestResponse {
        var headers = fixture.headers(.get, uri, body: [], token: token)
        if let ifNoneMatch { headers[.ifNoneMatch] = ifNoneMatch }
        return try await client.execute(uri: uri, method: .get, headers: headers, body: nil)
    }

    @Test("thumb is a smaller JPEG with an ETag; the same ETag gets 304; full is the stored bytes; a bad size is 400")
    func sizes() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let sha = try await Self.inspect(fixture, client)
            let token = try await fixture.login(client, "inspector")
            let thumb = try await Self.get(fixture, client, "/v1/photos/\(sha)?size=thumb", token: token)
            #expect(thumb.status == .ok, "\(String(buffer: thumb.body))")
            #expect(thumb.headers[.contentType] == "image/jpeg")
            #expect(thumb.headers[.eTag] == "\"\(sha)-thumb\"")
            #expect(thumb.headers[.cacheControl] == "private, max-age=31536000, immutable")
            let bytes = [UInt8](buffer: thumb.body)
            #expect(ImageFormat.sniff(bytes) == .jpeg)
            let size = try Vips.size(of: bytes)
            #expect(size.width == 256 && size.height == 192, "\(size)")
            let again = try await Self.get(
                fixture, client, "/v1/photos/\(sha)?size=thumb", token: token, ifNoneMatch: "\"\(sha)-thumb\"")
            #expect(again.status == .notModified)
            #expect(again.body.readableBytes == 0)
            let otherSize = try await Self.get(
                fixture, client, "/v1/photos/\(sha)?size=view", token: token, ifNoneMatch: "\"\(sha)-thumb\"")
            #expect(otherSize.status == .ok, "another size's tag does not match")
            let full = try await Self.get(fixture, client, "/v1/photos/\(sha)?size=full", token: token)
            #expect([UInt8](buffer: full.body) == PhotoSizingTestsJPEG.bytes)
            let bad = try await Self.get(fixture, client, "/v1/photos/\(sha)?size=huge", token: token)
            #expect(bad.status == .badRequest)
        }
    }

    @Test("a colleague's photo is not found, until it is the reference image of a product in their task")
    func colleague() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let sha = try await Self.inspect(fixture, client)
            let colleague = try await fixture.login(client, "inspector2")
            let denied = try await Self.get(fixture, client, "/v1/photos/\(sha)?size=thumb", token: colleague)
            #expect(denied.status == .notFound)
            let manager = try await fixture.login(client, "manager")
            #expect(try await Self.get(fixture, client, "/v1/photos/\(sha)?size=thumb", token: manager).status == .ok)
            _ = try await Self.allocate(fixture, client, "inspector2", token: colleague)
            let reference = try await Self.get(fixture, client, "/v1/photos/\(sha)?size=thumb", token: colleague)
            #expect(reference.status == .ok, "the product's reference image: \(String(buffer: reference.body))")
        }
    }

    @Test("the problem answers: 415 for bytes that are not JPEG, PNG or HEIC, 422 over the pixel cap, 503 when busy")
    func problems() {
        #expect(Routes.problem(.unsupportedFormat).status == .unsupportedMediaType)
        #expect(Routes.problem(.tooManyPixels(width: 1, height: 1, limit: 0)).status == .unprocessableContent)
        #expect(Routes.problem(.busy).status == .serviceUnavailable)
    }
}

/// The JPEG of ``PhotoSizingTests`` (that target's fixture, repeated: test targets share no files).
enum PhotoSizingTestsJPEG {
    static let bytes = [UInt8](
        Data(
            base64Encoded:
                "/9j/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAEsAZADASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDMooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooA//Z"
        )!)
}
