import AuditService
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The handlers, one per ``Endpoint``.
struct Routes: Sendable {
    let server: ServerState
    var service: AuditService { server.service }

    func handle(_ endpoint: Endpoint, _ request: Request, _ context: ServerRequestContext) async throws -> Response {
        // Fail closed: a handler reached without its own gate (a route added some other way)
        // answers nothing.
        guard context.endpoint == endpoint else {
            throw Problem.unauthorized(
                "not-authenticated", "this route was reached without its authentication", remedy: "report it")
        }
        if endpoint.authentication == .session { _ = try context.requireUser() }
        if endpoint.authentication == .signature, context.appID == nil {
            throw Problem.unauthorized("signature-missing", "this route needs a signed request", remedy: "sign it")
        }
        return switch endpoint {
        case .health: try await health()
        case .openAPI: openAPI()
        case .metrics: await metrics()
        case .createSession: try await createSession(request, context)
        case .deleteSession: try deleteSession(context)
        case .me: try me(context)
        case .submitCommands: try await submitCommands(request, context)
        case .uploadPhoto: try await uploadPhoto(request, context)
        case .listBatches: try await listBatches(request, context)
        case .getBatch: try await getBatch(context)
        case .getTaskDatasheet: try await taskDatasheet(request, context)
        case .listLocations: try await locations()
        case .getCodeLists: try json(CodeLists.all)
        case .coverage: try await coverage(request)
        case .inspectorAnalytics: try await inspectorAnalytics(request)
        case .searchProducts: try await searchProducts(request)
        case .categories: try await categories(request)
        case .getProduct: try await product(request, context)
        case .history: try await history(request)
        case .verify: try await verify()
        case .listRules: try listRules(request)
        case .checkDatasheets: try await checkDatasheets(request, context)
        case .listTasks: try await listTasks(request, context)
        case .getPhoto: try await sizedPhoto(request, context)
        case .listReceptions: try await listReceptions(request, context)
        case .listUsers: try listAccounts()
        case .addUser: try await addAccount(request, context)
        case .changeUserRoles: try await changeAccountRoles(request, context)
        case .changeUserPassword: try await changeAccountPassword(request, context)
        case .disableUser: try await disableAccount(request, context)
        case .listApps: try listDeviceApps()
        case .addApp: try await addDeviceApp(request, context)
        case .revokeApp: try await revokeDeviceApp(request, context)
        }
    }

    /// A JSON response with sorted keys.
    func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        Self.jsonResponse(try Self.encode(value), status: status)
    }

    /// The encoder of every JSON answer (sorted keys, slashes as they are); encoding is thread-safe.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// `value` as JSON bytes with sorted keys.
    static func encode(_ value: some Encodable) throws -> ByteBuffer {
        ByteBuffer(bytes: try encoder.encode(value))
    }

    /// The media type a Content-Type header names (`image/jpeg` of `Image/JPEG; q=1`), exactly
    /// the one the request's signature covers: ``RequestSigning/mediaType(_:)``.
    static func mediaType(_ contentType: String?) -> String { RequestSigning.mediaType(contentType) }

    /// A JSON response of already encoded bytes.
    static func jsonResponse(_ body: ByteBuffer, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: body))
    }

    /// Decodes the (already collected) JSON body, or a 400 problem naming the field.
    func decode<T: Decodable>(_ type: T.Type, _ request: Request) async throws -> T {
        let buffer = try await request.body.collect(upTo: .max)
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer.readableBytesView))
        } catch let error as DecodingError {
            throw Problem.badRequest(
                "invalid-body", "the body is not a valid \(T.self): \(Self.describe(error))",
                remedy: "send JSON as /openapi.yaml describes")
        }
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.isEmpty ? "the body" : "'" + keys.joined(separator: ".") + "'"
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing field '\(key.stringValue)'" + (context.codingPath.isEmpty ? "" : " in \(path(context))")
        case .typeMismatch(let type, let context): return "\(path(context)) should be \(type)"
        case .valueNotFound(let type, let context): return "\(path(context)) should be \(type), found null"
        case .dataCorrupted(let context): return "\(path(context)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}
