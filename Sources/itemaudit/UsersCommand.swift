import ArgumentParser
import AuditService
import Foundation
import Logging

/// `itemaudit users add|list|disable|passwd|role`: accounts for the HTTP API, kept as events in the log.
struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "Manage the accounts that log in to `itemaudit serve` (changes are events in the log).",
        discussion: """
            Roles: inspector, receiver, manager, steward, auditor, admin. Passwords are read from \
            standard input (--password-stdin) or asked for on the terminal, never taken as an argument, \
            and stored only as bcrypt hashes. An inspector, receiver or manager is also registered in \
            the inspection domain under the same id, so the login name is the inspector id.

            Example:
              echo 'correct horse battery' | itemaudit users add anna --role inspector --name "Anna K" --password-stdin
              itemaudit users list
            """,
        subcommands: [UsersAdd.self, UsersList.self, UsersDisable.self, UsersPasswd.self]
    )

    /// Warnings and errors only.
    static var logger: Logger {
        var logger = Logger(label: "itemaudit.users")
        logger.logLevel = .warning
        return logger
    }

    /// Who the CLI acts as: the operating-system user.
    static var actor: String { "cli:" + (ProcessInfo.processInfo.environment["USER"] ?? "local") }

    /// A fresh command id for one CLI change.
    static func commandID(_ verb: String) -> String { "\(verb)-\(UUID().uuidString.lowercased())" }

    /// The password from standard input's first line, or asked for without echo on a terminal.
    static func readPassword(fromStandardInput: Bool) throws -> String {
        if fromStandardInput {
            guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                throw CLIFailure.badInput("no password on standard input (pipe it in: echo PASSWORD | itemaudit …)")
            }
            return line
        }
        guard isatty(0) == 1, let typed = getpass("password: ") else {
            throw CLIFailure.badInput("give the password on standard input with --password-stdin")
        }
        return String(cString: typed)
    }

    /// Runs an identity change, turning refusals into exit 2.
    static func change(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let refusal as IdentityRefusal {
            throw CLIFailure.badInput(refusal.message)
        } catch let error as AuditServiceError {
            throw CLIFailure.badInput(error.description)
        }
    }
}

struct UsersAdd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Create a user.",
        discussion: """
            Example:
              echo 'correct horse battery' | itemaudit users add anna --role inspector --password-stdin
            """)

    @Argument(help: "The login name (letters, digits, '.', '_', '-'); also the actor id of their events.")
    var username: String
    @Option(help: "The role: inspector, receiver, manager, steward, auditor or admin.") var role: String
    @Option(help: "Display name (default: the login name).") var name: String?
    @Flag(help: "Read the password from the first line of standard input.") var passwordStdin = false
    @OptionGroup var data: DataDirectoryOption

    func run() async throws {
        guard let role = UserRole(name: role) else {
            throw CLIFailure.badInput(
                "unknown role '\(role)' (use one of \(UserRole.allCases.map(\.name).joined(separator: ", ")))")
        }
        let password = try UsersCommand.readPassword(fromStandardInput: passwordStdin)
        let service = try await ServiceAccess.open(data, logger: UsersCommand.logger)
        try await UsersCommand.change {
            let outcome = try await service.addUser(
                username: username, name: name ?? username, role: role, password: password,
                actor: UsersCommand.actor, commandID: UsersCommand.commandID("users-add"))
            print("added user \(username) (\(role.name)) at position \(outcome.positions?.lowerBound ?? 0)")
        }
        try await service.close()
    }
}

struct UsersList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List users, their roles and whether they are disabled.",
        discussion: """
            Example:
              itemaudit users list --format json
            """)

    @OptionGroup var data: DataDirectoryOption
    @OptionGroup var output: FormatOption

    struct Row: Encodable {
        var username: String
        var name: String
        var role: String
        var disabled: Bool
    }

    func run() async throws {
        let service = try await ServiceAccess.open(data, logger: UsersCommand.logger)
        let rows = service.identity.snapshot().users.values.sorted { $0.username < $1.username }.map {
            Row(username: $0.username, name: $0.name, role: $0.role.name, disabled: $0.disabled)
        }
        try await service.close()
        switch output.format {
        case .json: print(JSONOutput.text(rows), terminator: "")
        case .table, .csv:
            var table = TextTable(columns: ["username", "name", "role", "disabled"])
            for row in rows { table.append([row.username, row.name, row.role, row.disabled ? "yes" : "no"]) }
            print(output.render(table), terminator: "")
        }
    }
}

struct UsersDisable: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disable", abstract: "Disable a user: no more logins, open sessions refused.",
        discussion: """
            Example:
              itemaudit users disable anna --reason "left the company"
            """)

    @Argument(help: "The login name.") var username: String
    @Option(help: "Why (kept in the log for auditors).") var reason = ""
    @OptionGroup var data: DataDirectoryOption

    func run() async throws {
        let service = try await ServiceAccess.open(data, logger: UsersCommand.logger)
        try await UsersCommand.change {
            _ = try await service.execute(
                identity: .disableUser(UserDisabled(username: username, reason: reason)),
                commandID: UsersCommand.commandID("users-disable"), actor: UsersCommand.actor)
            print("disabled user \(username)")
        }
        try await service.close()
    }
}

struct UsersPasswd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passwd", abstract: "Set a user's password.",
        discussion: """
            Example:
              echo 'a new long password' | itemaudit users passwd anna --password-stdin
            """)

    @Argument(help: "The login name.") var username: String
    @Flag(help: "Read the password from the first line of standard input.") var passwordStdin = false
    @OptionGroup var data: DataDirectoryOption

    func run() async throws {
        let password = try UsersCommand.readPassword(fromStandardInput: passwordStdin)
        let service = try await ServiceAccess.open(data, logger: UsersCommand.logger)
        try await UsersCommand.change {
            _ = try await service.changePassword(
                username: username, password: password, actor: UsersCommand.actor,
                commandID: UsersCommand.commandID("users-passwd"))
            print("changed the password of \(username)")
        }
        try await service.close()
    }
}
