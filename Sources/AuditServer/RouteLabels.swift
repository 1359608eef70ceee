import HTTPTypes
import Hummingbird

/// The short name of each route for log lines and metrics (`coverage`, `page-dashboard`), found
/// by the route the router picked (its path pattern and the method), after it answered.
struct RouteLabels: Sendable {
    private let labels: [String: String]

    init() {
        var labels: [String: String] = [:]
        for endpoint in Endpoint.allCases {
            labels[Self.key(endpoint.method, RouterPath(endpoint.path).description)] = endpoint.rawValue
        }
        for route in WebRoute.allCases {
            labels[Self.key(route.method, RouterPath(route.path).description)] = route.label
        }
        self.labels = labels
    }

    /// The label of the route matched for `method` at `endpointPath` (the context's, set by the
    /// router), or `unmatched`.
    func label(method: HTTPRequest.Method, endpointPath: String?) -> String {
        guard let endpointPath else { return "unmatched" }
        return labels[Self.key(method, endpointPath)] ?? "unmatched"
    }

    private static func key(_ method: HTTPRequest.Method, _ path: String) -> String { "\(method.rawValue) \(path)" }
}
