import AuditLog
import AuditServer
import AuditService
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Inspection
import Logging
import NIOCore

/// A data directory with one user per role, one device app and a small catalogue, a manual clock,
/// and helpers to send signed requests. Removed afterwards.
final class ServerFixture: Sendable {
    let directory: URL
    let clock = ManualClock(Timestamp(microsecondsSinceEpoch: 1_772_438_400_000_000))  // 2026-03-02T08:00Z
    let service: AuditService
    let server: ServerState
    static let appID = "test-app"
    static let secret = [UInt8](repeating: 0x5A, count: 32)
    static let location = "S1"

    /// The user name of each role's test user (`inspector` also has a colleague, `inspector2`).
    static func username(_ role: UserRole) -> String { role.name }
    static func password(_ username: String) -> String { "password-\(username)" }

    init(configuration: (ManualClock) -> ServerConfiguration = { ServerConfiguration(clock: $0) }) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("auditserver-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        service = try await AuditService.open(dataDirectory: directory, clock: clock, logger: logger)
        server = ServerState(service: service, configuration: configuration(clock), logger: logger)
        for role in UserRole.allCases {
            _ = try await service.addUser(
                username: role.name, name: role.name, role: role, password: Self.password(role.name), actor: "setup",
                commandID: "user-\(role.name)", cost: 4)
        }
        _ = try await service.addUser(
            username: "inspector2", name: "Colleague", role: .inspector, password: Self.password("inspector2"),
            actor: "setup", commandID: "user-inspector2", cost: 4)
        _ = try await service.registerApp(
            appID: Self.appID, name: "test device", actor: "setup", commandID: "app", secret: Self.secret)
        _ = try await service.execute(bundle: Self.catalogue())
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// The application over this fixture's state.
    func application() throws -> some ApplicationProtocol { try buildApplication(server) }

    /// A valid GTIN-14 for index `i`.
    static func gtin(_ i: Int) -> String {
        let body = "0641234500" + String(format: "%03d", 100 + i)
        let digits = body.compactMap { $0.wholeNumberValue }
        var sum = 0
        for (offset, digit) in digits.reversed().enumerated() { sum += digit * (offset.isMultiple(of: 2) ? 3 : 1) }
        return body + String((10 - sum % 10) % 10)
    }

    static let attributes = ["name/fi", "net/content", "allergens"]

    /// A store and six products with datasheets, registered by an admin.
    static func catalogue() -> [CommandEnvelope] {
        var commands: [InspectionCommand] = [
            .registerLocation(RegisterLocation(locationID: location, name: "Store", kind: .store))
        ]
        for index in 0..<6 {
            commands.append(
                .registerProduct(
                    RegisterProduct(
                        gtin: gtin(index), name: "P\(index)", brand: "B", manufacturer: "M", productType: .base,
                        category: "C", listings: [ProductListing(locationID: location, aisle: "A\(index)")])))
            commands.append(
                .importDatasheet(
                    ImportDatasheet(
                        gtin: gtin(index), datasheetID: "ds\(index)", source: "t",
                        attributes: attributes.map { DatasheetAttribute(path: $0, value: "v") })))
        }
        return commands.enumerated().map {
            CommandEnvelope(commandID: "setup-\($0.offset)", actor: "admin", command: $0.element)
        }
    }

    /// The server clock in Unix seconds.
    var nowSeconds: Int64 { clock.now().microsecondsSinceEpoch / 1_000_000 }

    /// Signed headers for a request (overridable parts for the signature tests).
    func headers(
        _ method: HTTPRequest.Method, _ uri: String, body: [UInt8], token: String? = nil,
        transactionID: String = UUID().uuidString, timestamp: Int64? = nil, secret: [UInt8] = ServerFixture.secret,
        appID: String = ServerFixture.appID, contentType: String = "application/json"
    ) -> HTTPFields {
        var fields = HTTPFields()
        // The signed headers include the Content-Type they signed (sent with a body only).
        for (name, value) in RequestSigning.headers(
            appID: appID, secret: secret, method: method.rawValue, pathAndQuery: uri, body: body,
            contentType: body.isEmpty ? nil : contentType, timestamp: timestamp ?? nowSeconds,
            transactionID: transactionID)
        {
            fields[HTTPField.Name(name)!] = value
        }
        if let token { fields[.authorization] = "Bearer \(token)" }
        return fields
    }

    /// Sends a signed request.
    func send(
        _ client: some TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, json: String = "",
        token: String? = nil
    ) async throws -> TestResponse {
        let body = Array(json.utf8)
        return try await client.execute(
            uri: uri, method: method, headers: headers(method, uri, body: body, token: token),
            body: body.isEmpty ? nil : ByteBuffer(bytes: body))
    }

    /// Logs `username` in and returns the token.
    func login(_ client: some TestClientProtocol, _ username: String, password: String? = nil) async throws -> String {
        let response = try await send(
            client, .post, "/v1/sessions",
            json: #"{"username":"\#(username)","password":"\#(password ?? Self.password(username))"}"#)
        guard response.status == .created else {
            throw FixtureError("login of \(username) answered \(response.status): \(String(buffer: response.body))")
        }
        return try Self.object(response)["token"] as? String ?? ""
    }

    /// The JSON object of a response.
    static func object(_ response: TestResponse) throws -> [String: Any] {
        (try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any]) ?? [:]
    }

    /// A bundle body of command objects (JSON fragments).
    static func bundle(_ commands: [String]) -> String { #"{"commands":[\#(commands.joined(separator: ","))]}"# }
}

struct FixtureError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
