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
        case .getPhoto: ("/v1/photos/" + String(repeating: "a", count: 64) + "?size=thumb", "")
        case .getBatch: ("/v1/batches/B404", "")
        case .getTaskDatasheet: ("/v1/tasks/T404/datasheet", "")
        case .getProduct: ("/v1/products/\(ServerFixture.gtin(0))", "")
        case .submitCommands: ("/v1/commands", #"{"commands":[]}"#)
        case .createSession: ("/v1/sessions", "{}")
        case .checkDatasheets: ("/v1/datasheets/check", DatasheetRoutesTests.good)
        case .addUser: ("/v1/admin/users", #"{"username":"matrix","roles":["auditor"],"password":"matrix password"}"#)
        case .changeUserRoles: ("/v1/admin/users/nobody/roles", #"{"roles":["auditor"]}"#)
        case .changeUserPassword: ("/v1/admin/users/nobody/password", #"{"password":"a long password"}"#)
        case .disableUser: ("/v1/admin/users/nobody/disable", "{}")
        case .addApp: ("/v1/admin/apps", #"{"name":"matrix"}"#)
        case .revokeApp: ("/v1/admin/apps/nobody/revoke", "{}")
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
        for kind in InspectionCommand.Kind.allCases {
            #expect(!PermissionTable.roles(forCommand: kind).contains(.auditor), "\(kind)")
        }
    }

    /// The decisions written out, as docs/security.md's role table states them: a change to the
    /// table (or to a command's metadata) that changes who may do what fails here and must be meant.
    @Test("the table decides as docs/security.md's role table says, command by command and route by route")
    func decisionsAsDocumented() {
        let all = Set(UserRole.allCases)
        let work: Set<UserRole> = [.inspector, .admin]
        let commands: [InspectionCommand.Kind: Set<UserRole>] = [
            .registerLocation: [.admin], .registerInspector: [.admin],
            .registerProduct: [.steward, .admin], .importDatasheet: [.steward, .admin],
            .recordRuleCheck: [.steward, .admin], .receiveProduct: [.receiver, .admin],
            .allocateBatch: [.inspector, .manager, .admin], .allocateAdHocTask: [.inspector, .manager, .admin],
            .cancelBatch: [.inspector, .manager, .admin], .expireBatch: [],
            .startCollection: work, .pauseCollection: work, .finishCollection: work, .cancelCollection: work,
            .collectProduct: work, .skipCollection: work, .startInspection: work, .pauseInspection: work,
            .recordVerdicts: work, .attachPhoto: work, .detachPhoto: work, .finishInspection: work,
            .skipInspection: work,
            .submitBatch: work,
        ]
        for kind in InspectionCommand.Kind.allCases {
            #expect(PermissionTable.roles(forCommand: kind) == commands[kind], "\(kind.rawValue)")
        }
        let readers: Set<UserRole> = [.manager, .auditor, .admin]
        let batches: Set<UserRole> = [.inspector, .manager, .auditor, .admin]
        let endpoints: [Endpoint: Set<UserRole>] = [
            .health: all, .openAPI: all, .metrics: all, .createSession: all, .deleteSession: all, .me: all,
            .listLocations: all, .getCodeLists: all, .searchProducts: all, .categories: all, .getProduct: all,
            .listRules: all, .submitCommands: [.inspector, .receiver, .manager, .steward, .admin],
            .uploadPhoto: [.inspector, .admin], .listBatches: batches, .getBatch: batches,
            .getTaskDatasheet: batches, .coverage: readers, .inspectorAnalytics: readers, .history: readers,
            .verify: [.auditor, .admin], .checkDatasheets: [.steward, .manager, .admin],
            .listTasks: batches,
            .getPhoto: all,
            .listReceptions: [.receiver, .manager, .auditor, .admin],
            .listUsers: [.admin], .addUser: [.admin], .changeUserRoles: [.admin], .changeUserPassword: [.admin],
            .disableUser: [.admin], .listApps: [.admin], .addApp: [.admin], .revokeApp: [.admin],
        ]
        for endpoint in Endpoint.allCases {
            #expect(PermissionTable.roles(for: endpoint) == endpoints[endpoint], "\(endpoint)")
        }
        let pages: [PageName: Set<UserRole>] = [
            .dashboard: all, .coverage: readers, .inspectors: readers.union([.inspector]), .product: all,
            .batch: batches, .history: readers, .search: all, .categories: all,
            .rules: [.steward, .manager, .auditor, .admin],
            .receptions: [.receiver, .manager, .auditor, .admin],
        ]
        for page in PageName.allCases {
            #expect(PermissionTable.roles(forPage: page) == pages[page], "\(page)")
            #expect(PermissionTable.roles(for: .page(page)) == pages[page], "\(page)")
        }
        for route in [WebRoute.loginForm, .login, .logout, .favicon, .home, .photo] {
            #expect(PermissionTable.roles(for: route) == all, "\(route)")
        }
        #expect(PermissionTable.roles(for: .checkDatasheet) == [.steward, .manager, .admin])
        #expect(UserRole.allCases.filter(PermissionTable.mayRecordDatasheets) == [.steward, .admin])
        #expect(UserRole.allCases.filter(PermissionTable.isLimitedToOwnWork) == [.inspector])
        #expect(UserRole.allCases.filter(PermissionTable.isLimitedToOwnReceptions) == [.receiver])
        // A receiver who also manages reads everyone's receptions; one who also inspects does not.
        #expect(PermissionTable.isLimitedToOwnReceptions(Set<UserRole>([.receiver, .inspector])))
        #expect(!PermissionTable.isLimitedToOwnReceptions(Set<UserRole>([.receiver, .manager])))
        #expect(!PermissionTable.isLimitedToOwnReceptions(Set<UserRole>([.manager])))
    }

    /// Valid commands of several types (type, JSON fields).
    static let samples: [(InspectionCommand.Kind, String)] = [
        (.registerLocation, #""locationID":"W9","name":"W","kind":1"#),
        (.registerInspector, #""inspectorID":"x9","name":"X","role":0"#),
        (.startCollection, #""batchID":"B1""#),
        (.cancelBatch, #""batchID":"B1","reason":"r""#),
        (.expireBatch, #""batchID":"B1""#),
    ]

    @Test("each command type is refused (403, nothing appended) for roles the table leaves out")
    func commandRoles() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            for role in UserRole.allCases where role != .auditor {
                let token = try await fixture.login(client, role.name)
                for (kind, fields) in Self.samples where !PermissionTable.roles(forCommand: kind).contains(role) {
                    let before = fixture.service.log.lastPosition
                    let type = kind.rawValue
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
