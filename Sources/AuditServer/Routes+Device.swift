import AuditService
import Foundation
import Hummingbird

extension Routes {
    struct BatchList: Encodable {
        var batches: [DeviceBatch]
        /// With `?mode=4`: ad-hoc tasks have no batch, so they are listed here.
        var adHocTasks: [DeviceTask]?
    }

    struct LocationList: Encodable {
        var locations: [DeviceLocation]
    }

    /// `GET /v1/batches?status=&mode=&inspector=`: an inspector sees only their own.
    func listBatches(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let query = request.uri.queryParameters
        func code(_ name: String, _ range: ClosedRange<Int>) throws -> Int? {
            guard let text = query[name[...]] else { return nil }
            guard let value = Int(text), range.contains(value) else {
                throw Problem.badRequest(
                    "invalid-query",
                    "\(name) must be an integer \(range.lowerBound)-\(range.upperBound), not '\(text)'",
                    remedy: "see GET /v1/codelists")
            }
            return value
        }
        let status = try code("status", 0...7)
        let mode = try code("mode", 0...4)
        var inspector = query["inspector"].map(String.init)
        if PermissionTable.isLimitedToOwnWork(user.roles) {
            if let inspector, inspector != user.username {
                throw Problem.forbidden("an inspector sees only their own batches", remedy: "leave out ?inspector=")
            }
            inspector = user.username
        }
        let adHocTasks =
            mode == InspectionMode.adHoc.rawValue
            ? await service.deviceTasks(inspectorID: inspector, gtins: nil, mode: mode, limit: 200, offset: 0).items
            : nil
        return try json(
            BatchList(
                batches: await service.deviceBatches(inspectorID: inspector, status: status, mode: mode),
                adHocTasks: adHocTasks))
    }

    /// `GET /v1/batches/{batchID}`: the batch, its tasks and its missing photos.
    func getBatch(_ context: ServerRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let id = context.parameters.get("batchID") ?? ""
        guard let batch = await service.deviceBatch(id) else {
            throw Problem.notFound("no batch '\(id)'", remedy: "list your batches: GET /v1/batches")
        }
        if PermissionTable.isLimitedToOwnWork(user.roles), batch.inspectorID != user.username {
            throw Problem.forbidden(
                "batch '\(id)' belongs to another inspector", remedy: "open one of your own batches")
        }
        return Self.jsonResponse(batch.json())
    }

    /// `GET /v1/tasks/{taskID}/datasheet`: the supplier's values to verify, grouped, named and
    /// explained in the `Accept-Language` asked for (en when none is supported), and the verdicts so far.
    func taskDatasheet(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let id = context.parameters.get("taskID") ?? ""
        let language = CatalogueLanguage(acceptLanguage: request.headers[.acceptLanguage])
        guard let (owner, datasheet) = await service.deviceDatasheet(taskID: id, language: language) else {
            throw Problem.notFound("no task '\(id)'", remedy: "open a batch to see its task ids")
        }
        if PermissionTable.isLimitedToOwnWork(user.roles), owner != user.username {
            throw Problem.forbidden("task '\(id)' belongs to another inspector", remedy: "open one of your own tasks")
        }
        var response = try json(datasheet)
        response.headers[.contentLanguage] = language.rawValue
        response.headers[.vary] = "Accept-Language"
        return response
    }

    /// `GET /v1/locations`.
    func locations() async throws -> Response {
        try json(LocationList(locations: await service.deviceLocations()))
    }
}
