import Hummingbird
import NIOCore

/// The gate of one ``WebRoute``, added to that route alone: its body within the route's limit
/// (answered with a page a person can read) before the page's own session and CSRF checks run.
struct WebRouteGuard: RouterMiddleware {
    typealias Context = ServerRequestContext
    let route: WebRoute
    let server: ServerState

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var request = request
        let limit = route.bodyLimit(server)
        do {
            _ = try await request.collectBody(upTo: limit)
        } catch is NIOTooManyBytesError {
            return WebSecurity.errorPage(
                .contentTooLarge,
                limit == 0
                    ? "This page takes no request body."
                    : "The upload is larger than the \(limit >> 10) KiB this form takes. Send a smaller file.")
        }
        return try await next(request, context)
    }
}
