import HTTPTypes

/// What a cache (the browser's, a proxy's) may keep of an answer, decided by the kind of answer
/// rather than by each handler. Every answer also gets `X-Content-Type-Options: nosniff`.
enum CachePolicy: Sendable, Equatable {
    /// JSON, problem and page answers: the data of one user at one moment; never kept.
    case noStore
    /// An answer addressed by its content's hash that only its viewer may see (a photo).
    case privateImmutable
    /// An answer addressed by its content that anyone may keep (the log's tiles, later).
    case publicImmutable
    /// A public answer that changes rarely (the icon, the API's contract).
    case publicFor(seconds: Int)

    /// The `Cache-Control` value.
    var headerValue: String {
        switch self {
        case .noStore: "no-store"
        case .privateImmutable: "private, max-age=31536000, immutable"
        case .publicImmutable: "public, max-age=31536000, immutable"
        case .publicFor(let seconds): "public, max-age=\(seconds)"
        }
    }

    /// Sets `Cache-Control` unless the handler chose one, and `nosniff` always. An error answer is
    /// never cached, whatever the route's policy.
    static func apply(_ policy: CachePolicy, to fields: inout HTTPFields, status: HTTPResponse.Status) {
        fields[.xContentTypeOptions] = "nosniff"
        if status.code >= 300 {
            if status.code != 304 { fields[.cacheControl] = CachePolicy.noStore.headerValue }
        } else if fields[.cacheControl] == nil {
            fields[.cacheControl] = policy.headerValue
        }
    }
}
