import AuditService
import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// The outermost middleware: answers every failure as problem+json, logs one line per request
/// (request id, route, status, time; never a body or a secret) and counts requests and latency
/// by route for `/metrics`.
struct ProblemMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let server: ServerState
    let labels: RouteLabels

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            let problem = Self.problem(for: error, request: request)
            let route = labels.label(method: request.method, endpointPath: context.endpointPath)
            // A busy or unavailable answer (503) is the server working as meant, not a failure to log.
            if problem.status.code >= 500, problem.status != .serviceUnavailable {
                context.logger.error("request failed", metadata: ["route": "\(route)", "error": "\(error)"])
            }
            response = try problem.response(from: request, context: context)
        }
        // Every answer: nosniff, and never cached unless its route's policy said otherwise.
        CachePolicy.apply(.noStore, to: &response.headers, status: response.status)
        let elapsed = ContinuousClock.now - start
        // The router set the matched route's path on the context's shared box while answering.
        let route = labels.label(method: request.method, endpointPath: context.endpointPath)
        server.requestMetrics.request(route: route, status: response.status.code, elapsed: elapsed)
        context.logger.info(
            "request",
            metadata: [
                "method": "\(request.method)", "route": "\(route)", "status": "\(response.status.code)",
                "ms": "\(elapsed.components.attoseconds / 1_000_000_000_000_000 + elapsed.components.seconds * 1000)",
            ])
        return response
    }

    /// The problem for any error a handler or the router threw.
    static func problem(for error: any Error, request: Request) -> Problem {
        if let problem = error as? Problem { return problem }
        if let error = error as? AuditServiceError, error.code == .tooManyConflicts {
            return Problem(
                .serviceUnavailable, "busy", "other appends to the same stream kept winning; nothing was applied",
                remedy: "send the same request again (command ids make that safe)")
        }
        if let error = error as? AuditServiceError, error.code == .storeUnavailable {
            var problem = Problem(
                .serviceUnavailable, "store-unavailable",
                "the shared log's database cannot be reached; nothing was written",
                remedy: "send the same request again after Retry-After seconds (command ids make that safe)")
            problem.retryAfter = 2
            return problem
        }
        if let http = error as? HTTPError {
            switch http.status {
            case .notFound:
                return Problem.notFound(
                    "no route \(request.method) \(request.uri.path)", remedy: "see /openapi.yaml for the routes")
            case .contentTooLarge:
                return Problem(.contentTooLarge, "body-too-large", "the body is too large", remedy: "send less")
            case .methodNotAllowed:
                return Problem(
                    .methodNotAllowed, "method-not-allowed", "\(request.method) is not allowed on \(request.uri.path)",
                    remedy: "see /openapi.yaml for the routes")
            default:
                return Problem(
                    http.status, "http-\(http.status.code)", http.body ?? http.status.reasonPhrase,
                    remedy: "check the request against /openapi.yaml")
            }
        }
        return Problem(
            .internalServerError, "internal", "the server failed to answer (the request id is in its log)",
            remedy: "try again; report it if it persists")
    }
}
