import AuditLog
import AuditService
import Foundation
import Inspection
import Testing

/// Users and device apps are events in the log, decided and folded by the service.
@Suite("Identity")
struct IdentityTests {
    @Test("a user is added with a bcrypt hash, survives a reopen, and authenticates only with the password")
    func addUserAndReopen() async throws {
        let fixture = try ServiceFixture()
        do {
            let service = try await fixture.open()
            let outcome = try await service.addUser(
                username: "anna", name: "Anna", role: .inspector, password: "correct horse", actor: "admin",
                commandID: "u1", cost: 4)
            #expect(outcome.status == .accepted)
            #expect(outcome.eventTypes == ["UserAdded"])
            // The inspector is known to the domain under the same id.
            #expect(await service.state.inspectors["anna"]?.role == .inspector)
            try await service.close()
        }
        let service = try await fixture.open()
        let user = try #require(service.identity.user("anna"))
        #expect(user.roles == [.inspector])
        #expect(user.passwordHash.hasPrefix("$2"))
        #expect(!user.passwordHash.contains("correct horse"))
        #expect(service.authenticate(username: "anna", password: "correct horse")?.username == "anna")
        #expect(service.authenticate(username: "anna", password: "wrong horse") == nil)
        #expect(service.authenticate(username: "nobody", password: "correct horse") == nil)
        try await service.close()
    }

    @Test("the actor of an identity event is the one who made the change")
    func actorRecorded() async throws {
        let fixture = try ServiceFixture()
        let service = try await fixture.open()
        let outcome = try await service.addUser(
            username: "sam", name: "Sam", role: .auditor, password: "long enough", actor: "cli:root",
            commandID: "u1", cost: 4)
        let position = try #require(outcome.positions?.lowerBound)
        var actors: [String] = []
        try service.log.forEachRecord(from: position, upTo: position) { actors.append($0.actor) }
        #expect(actors == ["cli:root"])
        try await service.close()
    }

    @Test("refusals append nothing: taken name, bad name, short password, unknown user, double disable")
    func refusals() async throws {
        let fixture = try ServiceFixture()
        let service = try await fixture.open()
        _ = try await service.addUser(
            username: "anna", name: "A", role: .steward, password: "12345678", actor: "a", commandID: "u1", cost: 4)
        let end = service.log.lastPosition
        await #expect(throws: IdentityRefusal.self) {
            _ = try await service.addUser(
                username: "anna", name: "A", role: .steward, password: "12345678", actor: "a", commandID: "u2",
                cost: 4)
        }
        await #expect(throws: IdentityRefusal.self) {
            _ = try await service.addUser(
                username: "an na", name: "A", role: .steward, password: "12345678", actor: "a", commandID: "u3",
                cost: 4)
        }
        let short = await #expect(throws: IdentityRefusal.self) {
            _ = try await service.addUser(
                username: "bo", name: "B", role: .steward, password: "short", actor: "a", commandID: "u4", cost: 4)
        }
        #expect(short?.code == .weakPassword)
        await #expect(throws: IdentityRefusal.self) {
            _ = try await service.execute(
                identity: .disableUser(UserDisabled(username: "ghost", reason: "")), commandID: "d0", actor: "a")
        }
        _ = try await service.execute(
            identity: .disableUser(UserDisabled(username: "anna", reason: "left")), commandID: "d1", actor: "a")
        #expect(service.identity.user("anna")?.disabled == true)
        #expect(service.authenticate(username: "anna", password: "12345678") == nil)
        let afterDisable = service.log.lastPosition
        #expect(afterDisable == end + 1)
        await #expect(throws: IdentityRefusal.self) {
            _ = try await service.execute(
                identity: .disableUser(UserDisabled(username: "anna", reason: "again")), commandID: "d2", actor: "a")
        }
        #expect(service.log.lastPosition == afterDisable)
        // The same command id again is a duplicate, not a second change.
        let repeated = try await service.execute(
            identity: .disableUser(UserDisabled(username: "anna", reason: "left")), commandID: "d1", actor: "a")
        #expect(repeated.status == .duplicate)
        try await service.close()
    }

    @Test("passwd replaces the hash: the old password stops working")
    func passwd() async throws {
        let fixture = try ServiceFixture()
        let service = try await fixture.open()
        _ = try await service.addUser(
            username: "m", name: "M", role: .manager, password: "first password", actor: "a", commandID: "u1", cost: 4)
        _ = try await service.changePassword(
            username: "m", password: "second password", actor: "a", commandID: "p1", cost: 4)
        #expect(service.authenticate(username: "m", password: "first password") == nil)
        #expect(service.authenticate(username: "m", password: "second password") != nil)
        try await service.close()
    }

    @Test("an app's secret is sealed in the log, opens with the key file, and is gone once revoked")
    func appSecrets() async throws {
        let fixture = try ServiceFixture()
        let secret = [UInt8](repeating: 7, count: 32)
        do {
            let service = try await fixture.open()
            let (_, shown) = try await service.registerApp(
                appID: "ipad-1", name: "iPad", actor: "a", commandID: "a1", secret: secret)
            #expect(shown == String(repeating: "07", count: 32))
            try await service.close()
        }
        // The log never holds the secret in the clear.
        let segments = try FileManager.default.contentsOfDirectory(
            at: fixture.directory.appendingPathComponent("log"), includingPropertiesForKeys: nil)
        #expect(!segments.isEmpty)
        let service = try await fixture.open()
        #expect(try service.secret(ofApp: "ipad-1") == secret)
        #expect(try service.secret(ofApp: "other") == nil)
        let sealed = try #require(service.identity.app("ipad-1")?.sealedSecret)
        #expect(Data(base64Encoded: sealed).map { [UInt8]($0) }?.contains(secret) == false)
        _ = try await service.execute(
            identity: .revokeApp(AppRevoked(appID: "ipad-1", reason: "lost")), commandID: "r1", actor: "a")
        #expect(try service.secret(ofApp: "ipad-1") == nil)
        // Another key file cannot open the secret.
        try FileManager.default.removeItem(at: service.vault.keyFile)
        _ = try service.vault.seal([1])
        #expect(throws: AuditServiceError.self) { try service.vault.open(sealed) }
        try await service.close()
    }

    @Test("identity event payloads round-trip and their schemas name exactly their JSON fields")
    func schemas() throws {
        let samples: [IdentityEvent] = [
            .userAdded(UserAdded(username: "u", name: "U", roles: [.admin], passwordHash: "$2b$04$x")),
            .userPasswordChanged(UserPasswordChanged(username: "u", passwordHash: "$2b$04$y")),
            .userRoleChanged(UserRoleChanged(username: "u", roles: [.auditor, .steward])),
            .userDisabled(UserDisabled(username: "u", reason: "r")),
            .appRegistered(AppRegistered(appID: "a", name: "A", sealedSecret: "c2VjcmV0")),
            .appRevoked(AppRevoked(appID: "a", reason: "r")),
        ]
        #expect(Set(samples.map(\.eventType)) == Set(IdentityEvent.currentTypes.map { $0.eventType }))
        let schemas = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Schemas/events")
        for event in samples {
            let decoded = try IdentityEvent.decode(
                eventType: event.eventType, schemaVersion: event.schemaVersion, payload: event.encoded())
            #expect(decoded == event)
            #expect(
                throws: PayloadDecodingError.self,
                performing: {
                    try IdentityEvent.decode(
                        eventType: event.eventType, schemaVersion: event.schemaVersion,
                        payload: Array(event.encoded().dropLast()))
                })
            let file = schemas.appendingPathComponent("\(event.eventType).v\(event.schemaVersion).json")
            let schema = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
            #expect(schema["x-module"] as? String == "AuditService")
            let json = try #require(
                try JSONSerialization.jsonObject(with: JSONEncoder().encode(event.payload)) as? [String: Any])
            #expect(Set(json.keys) == Set((schema["properties"] as? [String: Any] ?? [:]).keys))
            #expect(Set(json.keys) == Set(schema["required"] as? [String] ?? []))
        }
        #expect(try IdentityEvent.decode(eventType: "BatchAllocated", schemaVersion: 1, payload: []) == nil)
    }
}
