import AuditService
import Hummingbird

extension Routes {
    /// `GET /v1/receptions?receiver=&limit=&offset=`: received samples, newest first, paged as
    /// `GET /v1/tasks`. A receiver sees the receptions they entered.
    func listReceptions(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let query = Query(request)
        let limit = try query.integer("limit", 1...200) ?? 20
        let offset = try query.integer("offset", 0...1_000_000) ?? 0
        var receiver = query["receiver"]
        if PermissionTable.isLimitedToOwnReceptions(user.roles) {
            if let receiver, receiver != user.username {
                throw Problem.forbidden("a receiver sees only their own receptions", remedy: "leave out ?receiver=")
            }
            receiver = user.username
        }
        try await waitIfAsked(query)
        let chosen = receiver
        return try json(await report { try $0.receptions(receivedBy: chosen, limit: limit, offset: offset) })
    }
}
