import HTTPTypes
import Hummingbird
import NIOCore

/// The inspector's app (`WebApp/`, embedded by `tools/generate-app-assets`): its entry page at
/// `/app/`, its service worker and manifest beside it, and every other file under
/// `/app/{version}/`. The versioned files never change under their path, so a browser keeps them
/// for good; the entry page, the worker and the manifest name the version and are revalidated on
/// every load, so a new build reaches a device the next time it opens the app.
enum AppAssets {
    /// The app's own policy: scripts and styles from this server only (no inline code), images
    /// also from `blob:` (photos before upload, thumbnails fetched with the CSRF header) and `data:`.
    static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; "
        + "connect-src 'self'; worker-src 'self'; manifest-src 'self'"

    /// The files served beside the entry page rather than under the version (the worker's scope
    /// is its own folder, so it must live at `/app/`).
    static let unversioned: Set<String> = ["sw.js", "manifest.webmanifest"]

    /// The version the generator derived from the files' contents.
    static var version: String { EmbeddedAppFiles.version }

    /// The answer to one of the app's routes; a file that is not the app's is a 404.
    static func answer(_ route: WebRoute, _ request: Request, _ context: ServerRequestContext) -> Response {
        let name: String?
        switch route {
        case .appShell: name = "index.html"
        case .appFile: name = context.parameters.get("name").flatMap { unversioned.contains($0) ? $0 : nil }
        case .appAsset:
            name =
                context.parameters.get("name") == version
                ? context.parameters.get("file").flatMap { unversioned.contains($0) || $0 == "index.html" ? nil : $0 }
                : nil
        default: name = nil
        }
        guard let name, let text = EmbeddedAppFiles.files[name] else {
            return WebSecurity.errorPage(
                .notFound, "The app has no such file. Reload the app: it may have been updated since this page loaded.")
        }
        var headers = WebSecurity.headers(contentType: contentType(of: name))
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        let etag = "\"\(version)\""
        if route == .appAsset {
            headers[.cacheControl] = "public, max-age=31536000, immutable"
        } else {
            headers[.cacheControl] = "no-cache"
            headers[.eTag] = etag
            if request.headers[.ifNoneMatch] == etag {
                return Response(status: .notModified, headers: headers)
            }
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// The media type by the file's extension.
    static func contentType(of name: String) -> String {
        switch name.split(separator: ".").last ?? "" {
        case "html": "text/html; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "webmanifest": "application/manifest+json"
        case "svg": "image/svg+xml"
        case "json": "application/json"
        default: "application/octet-stream"
        }
    }
}
