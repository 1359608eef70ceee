import AuditLog
import AuditService
import Chronology
import Foundation
import Inspection
import Testing

/// A user may hold several roles (seed 4.2.7, "an inspector with a managerial role"): they may do
/// what any of them may, and only an inspector without the manager or admin role is limited to
/// their own work. Accounts written before (version 1 events, one role) still read.
@Suite("Several roles per user")
struct SeveralRolesTests {
    @Test("the permission table: any role allows; the own-work limit only without manager or admin")
    func table() {
        let coverage = PermissionTable.roles(forQuery: .coverage)
        #expect(!PermissionTable.permits([.inspector], coverage))
        #expect(PermissionTable.permits([.inspector, .manager], coverage))
        #expect(!PermissionTable.permits([], coverage))
        #expect(PermissionTable.isLimitedToOwnWork([.inspector]))
        #expect(PermissionTable.isLimitedToOwnWork([.inspector, .auditor]))
        #expect(PermissionTable.isLimitedToOwnWork([.inspector, .receiver]))
        #expect(!PermissionTable.isLimitedToOwnWork([.inspector, .manager]))
        #expect(!PermissionTable.isLimitedToOwnWork([.inspector, .admin]))
        #expect(!PermissionTable.isLimitedToOwnWork([.manager]))
        #expect(!PermissionTable.isLimitedToOwnWork([.receiver]))
        #expect(!PermissionTable.mayRecordDatasheets([.inspector, .auditor]))
        #expect(PermissionTable.mayRecordDatasheets([.inspector, .steward]))
    }

    @Test("an inspector who also manages acts on a colleague's batch; one who also audits does not")
    func ownWorkOnlyWithoutManagerRole() async throws {
        let fixture = try ServiceFixture()
        let service = try await fixture.open()
        _ = try await service.execute(bundle: catalogueCommands())
        for (username, roles) in [
            ("i2", Set([UserRole.inspector])), ("lead", [.inspector, .manager]), ("ia", [.inspector, .auditor]),
        ] {
            _ = try await service.addUser(
                username: username, name: username, roles: roles, password: "long enough", actor: "admin",
                commandID: "user-\(username)", cost: 4)
        }
        // The domain registers one who inspects as an inspector, whatever else they hold.
        #expect(await service.state.inspectors["lead"]?.role == .inspector)
        let allocation = try await service.execute(
            CommandEnvelope(
                commandID: "i2-alloc", actor: "i2",
                command: .allocateBatch(
                    AllocateBatch(inspectorID: "i2", locationID: "S1", mode: .existingProduct, quantity: 2))))
        #expect(allocation.createdID == "B1")
        let auditing = try await service.execute(
            CommandEnvelope(
                commandID: "ia-pause", actor: "ia", command: .startCollection(StartCollection(batchID: "B1"))))
        #expect(auditing.refusal?.code == .notOwnWork)
        let managing = try await service.execute(
            CommandEnvelope(
                commandID: "lead-cancel", actor: "lead",
                command: .cancelBatch(CancelBatch(batchID: "B1", reason: "reassigned"))))
        #expect(managing.status == .accepted)
        // The lead also allocates for themselves and works on their own batch, as an inspector.
        let own = try await service.execute(
            CommandEnvelope(
                commandID: "lead-alloc", actor: "lead",
                command: .allocateBatch(
                    AllocateBatch(inspectorID: "lead", locationID: "S1", mode: .existingProduct, quantity: 1))))
        #expect(own.status == .accepted)
        try await fixture.expectReopenedStateEqualsLive(service)
        try await service.close()
    }

    @Test("roles are replaced as a set, survive a reopen, and an unchanged or empty set is refused")
    func changeRoles() async throws {
        let fixture = try ServiceFixture()
        do {
            let service = try await fixture.open()
            _ = try await service.addUser(
                username: "anna", name: "Anna", roles: [.inspector], password: "long enough", actor: "admin",
                commandID: "u1", cost: 4)
            let changed = try await service.changeRoles(
                username: "anna", roles: [.manager, .inspector], actor: "admin", commandID: "r1")
            #expect(changed.eventTypes == ["UserRoleChanged"])
            await #expect(throws: IdentityRefusal.self) {
                try await service.changeRoles(
                    username: "anna", roles: [.inspector, .manager], actor: "a", commandID: "r2")
            }
            await #expect(throws: IdentityRefusal.self) {
                try await service.changeRoles(username: "anna", roles: [], actor: "a", commandID: "r3")
            }
            await #expect(throws: IdentityRefusal.self) {
                try await service.addUser(
                    username: "nobody", name: "N", roles: [], password: "long enough", actor: "a", commandID: "u2",
                    cost: 4)
            }
            try await service.close()
        }
        let service = try await fixture.open()
        let anna = try #require(service.identity.user("anna"))
        #expect(anna.roles == [.inspector, .manager])
        #expect(anna.roleNames == ["inspector", "manager"])
        #expect(anna.primaryRole == .manager)
        #expect(service.identity.user("nobody") == nil)
        try await service.close()
    }

    @Test("a log written with version 1 account events (one role each) still reads, upcast to sets of one")
    func versionOneStillReads() async throws {
        let fixture = try ServiceFixture()
        do {
            let service = try await fixture.open()
            let old: [(String, any EventPayload)] = [
                ("user-old", UserAddedV1(username: "old", name: "Old", role: .auditor, passwordHash: "$2b$04$x")),
                ("user-old", UserRoleChangedV1(username: "old", role: .steward)),
                ("user-kept", UserAddedV1(username: "kept", name: "Kept", role: .receiver, passwordHash: "$2b$04$y")),
            ]
            var versions: [String: UInt64] = [:]
            for (index, (stream, payload)) in old.enumerated() {
                let version = versions[stream, default: 0]
                _ = try await service.log.append(contentsOf: [
                    StreamAppend(
                        streamID: stream, expected: version == 0 ? .noStream : .exactly(version),
                        commandID: "old-\(index)", actor: "cli:root",
                        events: [
                            ProposedEvent(
                                eventType: type(of: payload).eventType, schemaVersion: 1,
                                occurredAt: Timestamp(microsecondsSinceEpoch: 1_700_000_000_000_000),
                                payload: payload.encoded())
                        ])
                ])
                versions[stream] = version + 1
            }
            try await service.close()
        }
        let service = try await fixture.open()
        #expect(service.identity.user("old")?.roles == [.steward])
        #expect(service.identity.user("kept")?.roles == [.receiver])
        try await service.close()
        // Decoded directly: version 1 bytes become the version 2 event, and version 3 is refused.
        let bytes = UserAddedV1(username: "u", name: "U", role: .admin, passwordHash: "h").encoded()
        #expect(
            try IdentityEvent.decode(eventType: "UserAdded", schemaVersion: 1, payload: bytes)
                == .userAdded(UserAdded(username: "u", name: "U", roles: [.admin], passwordHash: "h")))
        #expect(throws: PayloadDecodingError.self) {
            try IdentityEvent.decode(eventType: "UserAdded", schemaVersion: 3, payload: bytes)
        }
        // A version 2 account without a role is damage, not an account that may do nothing.
        #expect(throws: PayloadDecodingError.self) {
            try IdentityEvent.decode(eventType: "UserRoleChanged", schemaVersion: 2, payload: [1, 0x75, 0])
        }
    }

    @Test("the last enabled admin keeps the admin role and cannot be disabled; with a second admin both may change")
    func lastAdminKept() async throws {
        let fixture = try ServiceFixture()
        let service = try await fixture.open()
        _ = try await service.addUser(
            username: "root", name: "Root", roles: [.admin], password: "long enough", actor: "cli", commandID: "u1",
            cost: 4)
        let before = service.log.lastPosition
        await #expect(throws: IdentityRefusal(.lastAdmin, "user 'root' is the last enabled admin (make another user admin first)")) {
            try await service.changeRoles(username: "root", roles: [.manager], actor: "root", commandID: "r1")
        }
        await #expect(throws: IdentityRefusal.self) {
            try await service.execute(
                identity: .disableUser(UserDisabled(username: "root", reason: "")), commandID: "d1", actor: "root")
        }
        #expect(service.log.lastPosition == before, "a refusal appends nothing")
        _ = try await service.addUser(
            username: "second", name: "Second", roles: [.admin, .inspector], password: "long enough", actor: "root",
            commandID: "u2", cost: 4)
        _ = try await service.changeRoles(username: "root", roles: [.manager], actor: "second", commandID: "r2")
        #expect(service.identity.user("root")?.roles == [.manager])
        await #expect(throws: IdentityRefusal.self) {
            try await service.execute(
                identity: .disableUser(UserDisabled(username: "second", reason: "")), commandID: "d2", actor: "second")
        }
        try await service.close()
    }
}
