import ArgumentParser
import AuditService
import Foundation
import Logging
import ServerClient

/// `itemaudit users add|list|disable|passwd|roles`: accounts for the HTTP API, kept as events in the log.
struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "Manage the accounts that log in to `itemaudit serve` (changes are events in the log).",
        discussion: """
            Roles: inspector, receiver, manager, steward, auditor, admin; a user may hold several \
            (--role repeated) and may do what any of them may. Passwords are read from \
            standard input (--password-stdin) or asked for on the terminal, never taken as an argument, \
            and stored only as bcrypt hashes. An inspector, receiver or manager is also registered in \
            the inspection domain under the same id, so the login name is the inspector id. While \
            `itemaudit serve` runs, give --server URL: the change goes through its admin routes.

            Example:
              echo 'correct horse battery' | itemaudit users add anna --role inspector --name "Anna K" --password-stdin
              itemaudit users roles anna --role inspector --role manager
              itemaudit users list
              ITEMAUDIT_USER=root ITEMAUDIT_APP=app-1 ITEMAUDIT_SECRET=… itemaudit users list --server http://127.0.0.1:8080
            """,
        subcommands: [UsersAdd.self, UsersList.self, UsersDisable.self, UsersPasswd.self, UsersRoles.self]
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

    /// Roles from `--role` names (at least one).
    static func roles(_ names: [String]) throws -> [UserRole] {
        do {
            return try UserRole.parse(names: names)
        } catch {
            throw CLIFailure.badInput(error.message)
        }
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
    @Option(
        help:
            "A role: inspector, receiver, manager, steward, auditor or admin; repeat it for several (--role inspector --role manager)."
    )
    var role: [String] = []
    @Option(help: "Display name (default: the login name).") var name: String?
    @Flag(help: "Read the password from the first line of standard input.") var passwordStdin = false
    @OptionGroup var data: DataDirectoryOption
    @OptionGroup var remote: ServerOption

    func run() async throws {
        let roles = try UsersCommand.roles(role)
        let names = roles.map(\.name).joined(separator: ", ")
        let password = try UsersCommand.readPassword(fromStandardInput: passwordStdin)
        if let server = remote.server {
            try await remote.run(server) { client in
                let answer = try await client.expect(
                    201, "POST", "/v1/admin/users",
                    json: [
                        "username": username, "name": name ?? username, "roles": roles.map(\.name),
                        "password": password, "commandID": UsersCommand.commandID("users-add"),
                    ], doing: "add user \(username)")
                print("added user \(username) (\(names)) at position \(answer["position"] as? Int ?? 0)")
            }
            return
        }
        let service = try await ServiceAccess.open(data, logger: UsersCommand.logger)
        try await UsersCommand.change {
            let outcome = try await service.addUser(
                username: username, name: name ?? username, roles: Set(roles), password: password,
                actor: UsersCommand.actor, commandID: UsersCommand.commandID("users-add"))
            print("added user \(username) (\(names)) at position \(outcome.positions?.lowerBound ?? 0)")
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
    @OptionGroup var remote: ServerOption

    struct Row: Encodable {
        var username: String
        var name: String
        /// The highest of `roles` (as the API's `role`).
        var role: String
        var roles: [String]
        var disabled: Bool
    }

    func run() async throws {
        var rows: [Row] = []
        if let server = remote.server {
            try await remote.run(server) { client in
                let answer = try await client.expect(200, "GET", "/v1/admin/users", doing: "list users")
                for user in answer["users"] as? [[String: Any]] ?? [] {
                    rows.append(
                        Row(
                            username: user["username"] as? String ?? "", name: user["name"] as? String ?? "",
                            role: user["role"] as? String ?? "", roles: user["roles"] as? [String] ?? [],
                            disabled: user["disabled"] as? Bool ?? false))
                }
            }
        } else {
            let service = try await ServiceAccess.open(data, logger: UsersCommand.logger)
            rows = service.identity.snapshot().users.values.sorted { $0.username < $1.username }.map {
                Row(
                    username: $0.username, name: $0.name, role: $0.primaryRole.name, roles: $0.roleNames,
                    disabled: $0.disabled)
            }
            try await service.close()
        }
        switch output.format {
        case .json: print(JSONOutput.text(rows), terminator: "")
        case .table, .csv:
            var table = TextTable(columns: ["username", "name", "roles", "disabled"])
            for row in rows {
                table.append([row.username, row.name, row.roles.joined(separator: " "), row.disabled ? "yes" : "no"])
            }
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
    @OptionGroup var remote: ServerOption

    func run() async throws {
        if let server = remote.server {
            try await remote.run(server) { client in
                _ = try await client.expect(
                    200, "POST", "/v1/admin/users/\(AdminClient.segment(username))/disable",
                    json: ["reason": reason, "commandID": UsersCommand.commandID("users-disable")],
                    doing: "disable user \(username)")
                print("disabled user \(username)")
            }
            return
        }
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
    @OptionGroup var remote: ServerOption

    func run() async throws {
        let password = try UsersCommand.readPassword(fromStandardInput: passwordStdin)
        if let server = remote.server {
            try await remote.run(server) { client in
                _ = try await client.expect(
                    200, "PUT", "/v1/admin/users/\(AdminClient.segment(username))/password",
                    json: ["password": password, "commandID": UsersCommand.commandID("users-passwd")],
                    doing: "change the password of \(username)")
                print("changed the password of \(username)")
            }
            return
        }
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

struct UsersRoles: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "roles", abstract: "Replace a user's roles (they may do what any of them may).",
        discussion: """
            Example:
              itemaudit users roles anna --role inspector --role manager
            """)

    @Argument(help: "The login name.") var username: String
    @Option(help: "A role; repeat it for several. The user holds exactly these afterwards.") var role: [String] = []
    @OptionGroup var data: DataDirectoryOption
    @OptionGroup var remote: ServerOption

    func run() async throws {
        let roles = try UsersCommand.roles(role)
        let names = roles.map(\.name).joined(separator: ", ")
        if let server = remote.server {
            try await remote.run(server) { client in
                _ = try await client.expect(
                    200, "PUT", "/v1/admin/users/\(AdminClient.segment(username))/roles",
                    json: ["roles": roles.map(\.name), "commandID": UsersCommand.commandID("users-roles")],
                    doing: "change the roles of \(username)")
                print("user \(username) now has roles \(names)")
            }
            return
        }
        let service = try await ServiceAccess.open(data, logger: UsersCommand.logger)
        try await UsersCommand.change {
            _ = try await service.changeRoles(
                username: username, roles: Set(roles), actor: UsersCommand.actor,
                commandID: UsersCommand.commandID("users-roles"))
            print("user \(username) now has roles \(names)")
        }
        try await service.close()
    }
}
