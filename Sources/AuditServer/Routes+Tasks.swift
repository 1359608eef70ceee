import AuditService
import Hummingbird

extension Routes {
    /// The longest scanned code read: a GS1 element string or Digital Link URI is far shorter.
    static let maxScanLength = 1024

    /// `GET /v1/tasks?scan=&gtin=&mode=&inspector=&limit=&offset=`: tasks (batch and ad-hoc), open
    /// work first; `scan` finds the task of a scanned code in any form a scanner gives. An
    /// inspector sees only their own.
    func listTasks(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let query = Query(request)
        let mode = try query.integer("mode", 0...4)
        let limit = try query.integer("limit", 1...200) ?? 20
        let offset = try query.integer("offset", 0...1_000_000) ?? 0
        var gtins: [String]?
        for name in ["scan", "gtin"] {
            guard let code = query[name] else { continue }
            let scanned = code.utf8.count <= Self.maxScanLength ? AuditService.scannedGTINs(code) : []
            guard !scanned.isEmpty else {
                throw Problem.badRequest(
                    "invalid-query",
                    "\(name) (\(code.utf8.count) bytes) is no GTIN, GS1 element string or Digital Link URI with a GTIN",
                    remedy: "scan the product's barcode again, or type its GTIN")
            }
            gtins = gtins.map { $0.filter(scanned.contains) } ?? scanned
        }
        var inspector = query["inspector"]
        if PermissionTable.isLimitedToOwnWork(user.roles) {
            if let inspector, inspector != user.username {
                throw Problem.forbidden("an inspector sees only their own tasks", remedy: "leave out ?inspector=")
            }
            inspector = user.username
        }
        return try json(
            await service.deviceTasks(inspectorID: inspector, gtins: gtins, mode: mode, limit: limit, offset: offset))
    }
}
