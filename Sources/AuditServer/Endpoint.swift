import AuditService
import HTTPTypes

/// Every route the server answers, with how it is authenticated. The router is built from this
/// list, the permission table is keyed by it, and a test checks it against `Schemas/openapi.yaml`.
public enum Endpoint: String, CaseIterable, Sendable {
    case health
    case openAPI
    case metrics
    case createSession
    case deleteSession
    case me
    case submitCommands
    case uploadPhoto
    case listBatches
    case getBatch
    case getTaskDatasheet
    case listLocations
    case getCodeLists
    case coverage
    case inspectorAnalytics
    case searchProducts
    case categories
    case getProduct
    case history
    case verify
    case listRules
    case checkDatasheets

    /// How a request to an endpoint proves who sent it.
    public enum Authentication: Sendable {
        /// Nothing: liveness, the contract and metrics carry no data.
        case none
        /// A signed request from a registered app (logging in).
        case signature
        /// A signed request and a live session.
        case session
    }

    /// The HTTP method.
    public var method: HTTPRequest.Method {
        switch self {
        case .createSession, .submitCommands, .checkDatasheets: .post
        case .deleteSession: .delete
        case .uploadPhoto: .put
        default: .get
        }
    }

    /// The path as the OpenAPI document writes it (`{name}` for a parameter).
    public var path: String {
        switch self {
        case .health: "/health"
        case .openAPI: "/openapi.yaml"
        case .metrics: "/metrics"
        case .createSession: "/v1/sessions"
        case .deleteSession: "/v1/sessions/current"
        case .me: "/v1/me"
        case .submitCommands: "/v1/commands"
        case .uploadPhoto: "/v1/photos/{sha256}"
        case .listBatches: "/v1/batches"
        case .getBatch: "/v1/batches/{batchID}"
        case .getTaskDatasheet: "/v1/tasks/{taskID}/datasheet"
        case .listLocations: "/v1/locations"
        case .getCodeLists: "/v1/codelists"
        case .coverage: "/v1/coverage"
        case .inspectorAnalytics: "/v1/inspectors"
        case .searchProducts: "/v1/products"
        case .categories: "/v1/categories"
        case .getProduct: "/v1/products/{gtin}"
        case .history: "/v1/history"
        case .verify: "/v1/verify"
        case .listRules: "/v1/rules"
        case .checkDatasheets: "/v1/datasheets/check"
        }
    }

    /// How requests prove who sent them.
    public var authentication: Authentication {
        switch self {
        case .health, .openAPI, .metrics: .none
        case .createSession: .signature
        default: .session
        }
    }

    /// The endpoint answering `method` on a concrete path, if any (for the middleware, before routing).
    static func match(method: HTTPRequest.Method, path: String) -> Endpoint? {
        let parts = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        for (endpoint, pattern) in patterns where endpoint.method == method && pattern.count == parts.count {
            // A nil segment is a `{parameter}`: any non-empty text.
            let matches = zip(pattern, parts).allSatisfy { segment, part in
                guard let segment else { return !part.isEmpty }
                return segment.elementsEqual(part)
            }
            if matches { return endpoint }
        }
        return nil
    }

    /// Each endpoint's path split at `/`, once: nil for a `{parameter}` segment.
    private static let patterns: [(Endpoint, [[UInt8]?])] = allCases.map { endpoint in
        let segments = endpoint.path.split(separator: "/", omittingEmptySubsequences: false)
        return (endpoint, segments.map { $0.hasPrefix("{") ? nil : Array($0.utf8) })
    }
}
