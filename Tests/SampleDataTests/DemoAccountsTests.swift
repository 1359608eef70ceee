import AuditService
import Foundation
import Logging
import SampleData
import TestSupport
import Testing

@Suite("Demo accounts")
struct DemoAccountsTests {
    @Test("each demo account's stored hash verifies its printed password, and no other")
    func hashesMatchPasswords() async throws {
        let directory = try TemporaryDirectory(prefix: "demo-accounts")
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        let service = try await AuditService.open(dataDirectory: directory.url, logger: logger)
        for account in DemoScenario.accounts {
            _ = try await service.execute(
                identity: .addUser(
                    UserAdded(
                        username: account.username, name: account.username, roles: [account.role],
                        passwordHash: account.passwordHash)),
                commandID: "add-\(account.username)", actor: "test")
            let user = try #require(service.identity.user(account.username))
            #expect(service.checkPassword(account.password, of: user), "\(account.username)")
            #expect(!service.checkPassword(account.password + "x", of: user), "\(account.username)")
        }
        #expect(Set(DemoScenario.accounts.map(\.role)) == [.manager, .inspector, .auditor])
        try await service.close()
    }
}
