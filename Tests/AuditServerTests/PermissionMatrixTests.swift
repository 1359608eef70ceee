import AuditServer
import AuditService
import Foundation
import HummingbirdTesting
import NIOCore
import Testing

/// Every role against every endpoint, decided by the one permission table.
@Suite("Permission matrix")
struct PermissionMatrixTests {
    /// A concrete request for each endpoint: a path with made-up ids and a body that passes the
    /// middleware, so the answer shows only the permission decision (403) or the handler's (anything else).
    static func request(_ endpoint: Endpoint) -> (uri: String, body: String) {
        switch endpoint {
        case .uploadPhoto: ("/v1/photos/" + String(repeating: "a", count: 64), "")
        case .getBatch: ("/v1/batches/B404", "")
        case .getTaskDatasheet: ("/v1/tasks/T404/datasheet", "")
        case .getProduct: ("/v1/products/\(ServerFixture.gtin(0))", "")
        case .submitCommands: ("/v1/commands", #"{"commands":[]}"#)
        case .createSession: ("/v1/sessions", "{}")
        case .checkDatasheets: ("/v1/datasheets/check", DatasheetRoutesTests.good)
        default: (endpoint.path, "")
        }
    }

    @Test("each role gets 403 exactly where the table says no", arguments: UserRole.allCases)
    func matrix(_ role: UserRole) async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let token = try await fixture.login(client, role.name)
            // Logging out last: it ends the session the others use.
            let endpoints = Endpoint.allCases.filter { $0.authentication == .session && $0 != .deleteSession }
            for endpoint in endpoints + [.deleteSession] {
                let (uri, body) = Self.request(endpoint)
                let response = try await fixture.send(client, endpoint.method, uri, json: body, token: token)
                let allowed = PermissionTable.allows(role, endpoint)
                #expect(
                    (response.status == .forbidden) == !allowed,
                    "\(role.name) \(endpoint.method) \(uri): \(response.status) \(String(buffer: response.body))")
                #expect(response.status != .unauthorized, "\(role.name) \(uri)")
                #expect(response.status.code < 500, "\(role.name) \(uri): \(String(buffer: response.body))")
                if response.status == .forbidden {
                    #expect(try ServerFixture.object(response)["code"] as? String == "forbidden")
                }
            }
        }
    }

    @Test("an auditor only reads: no endpoint that changes anything allows it")
    func auditorReadsOnly() {
        for endpoint in Endpoint.allCases where endpoint.method != .get && endpoint.authentication == .session {
            #expect(!PermissionTable.allows(.auditor, endpoint) || endpoint == .deleteSession, "\(endpoint)")
        }
        for type in InspectionCommandNames.all {
            #expect(!PermissionTable.roles(forCommand: type).contains(.auditor), "\(type)")
        }
    }

    /// Valid commands of several types (type, JSON fields).
    static let samples = [
        ("RegisterLocation", #""locationID":"W9","name":"W","kind":1"#),
        ("RegisterInspector", #""inspectorID":"x9","name":"X","role":0"#),
        ("StartCollection", #""batchID":"B1""#),
        ("CancelBatch", #""batchID":"B1","reason":"r""#),
        ("ExpireBatch", #""batchID":"B1""#),
    ]

    @Test("each command type is refused (403, nothing appended) for roles the table leaves out")
    func commandRoles() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            for role in UserRole.allCases where role != .auditor {
                let token = try await fixture.login(client, role.name)
                for (type, fields) in Self.samples where !PermissionTable.roles(forCommand: type).contains(role) {
                    let before = fixture.service.log.lastPosition
                    let response = try await fixture.send(
                        client, .post, "/v1/commands",
                        json: ServerFixture.bundle([
                            #"{"commandID":"p-\#(role.name)-\#(type)","type":"\#(type)",\#(fields)}"#
                        ]),
                        token: token)
                    #expect(response.status == .forbidden, "\(role.name) \(type)")
                    #expect(fixture.service.log.lastPosition == before)
                }
            }
        }
    }
}

/// Command type names, for tables over commands.
enum InspectionCommandNames {
    static let all = [
        "RegisterLocation", "RegisterInspector", "RegisterProduct", "ImportDatasheet", "RecordRuleCheck",
        "ReceiveProduct", "AllocateBatch", "AllocateAdHocTask", "StartCollection", "PauseCollection",
        "FinishCollection", "CancelCollection", "CollectProduct", "SkipCollection", "StartInspection",
        "PauseInspection", "RecordVerdicts", "AttachPhoto", "FinishInspection", "SkipInspection", "SubmitBatch",
        "CancelBatch", "ExpireBatch",
    ]
}
