import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuditServer

/// The inspector's app as `serve` gives it: public, its own strict CSP, versioned files kept for
/// good, the entry page, worker and manifest revalidated, and nothing but the app's own files.
@Suite("The inspector's app under /app/")
struct AppAssetsTests {
    static let csp =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; "
        + "connect-src 'self'; worker-src 'self'; manifest-src 'self'"

    @Test("the entry page is public, revalidated, under the app's CSP, and names its versioned files")
    func entryPage() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            for path in ["/app", "/app/"] {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .ok, "\(path)")
                #expect(response.headers[.contentSecurityPolicy] == Self.csp)
                #expect(response.headers[.cacheControl] == "no-cache")
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                let html = String(buffer: response.body)
                #expect(html.contains("/app/\(AppAssets.version)/main.js"))
                #expect(!html.contains("style="), "no inline style")
                let etag = try #require(response.headers[.eTag])
                var headers = HTTPFields()
                headers[.ifNoneMatch] = etag
                let again = try await client.execute(uri: path, method: .get, headers: headers)
                #expect(again.status == .notModified)
            }
        }
    }

    @Test("versioned files are immutable with their media type; the worker and manifest are revalidated")
    func files() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let expected = [
                (
                    "/app/\(AppAssets.version)/main.js", "text/javascript; charset=utf-8",
                    "public, max-age=31536000, immutable"
                ),
                ("/app/\(AppAssets.version)/app.css", "text/css; charset=utf-8", "public, max-age=31536000, immutable"),
                ("/app/\(AppAssets.version)/icon.svg", "image/svg+xml", "public, max-age=31536000, immutable"),
                ("/app/sw.js", "text/javascript; charset=utf-8", "no-cache"),
                ("/app/manifest.webmanifest", "application/manifest+json", "no-cache"),
            ]
            for (path, type, cache) in expected {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .ok, "\(path)")
                #expect(response.headers[.contentType] == type, "\(path)")
                #expect(response.headers[.cacheControl] == cache, "\(path)")
                #expect(response.headers[.contentSecurityPolicy] == Self.csp, "\(path)")
                #expect(response.headers[.xContentTypeOptions] == "nosniff", "\(path)")
            }
            let worker = String(buffer: try await client.execute(uri: "/app/sw.js", method: .get).body)
            #expect(worker.contains("\"\(AppAssets.version)\""), "the worker names its version")
        }
    }

    @Test("another version, an unknown file or the entry page under a version is a 404")
    func notTheAppsFiles() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            for path in [
                "/app/0000000000000000/main.js", "/app/\(AppAssets.version)/nothing.js", "/app/nothing.js",
                "/app/main.js", "/app/\(AppAssets.version)/sw.js", "/app/\(AppAssets.version)/index.html",
            ] {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .notFound, "\(path)")
                #expect(response.headers[.cacheControl] == "no-store", "\(path)")
            }
        }
    }
}
