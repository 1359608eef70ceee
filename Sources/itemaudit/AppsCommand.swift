import ArgumentParser
import AuditService
import Foundation
import ServerClient

/// `itemaudit apps add|list|revoke`: the device apps allowed to sign requests.
struct AppsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apps",
        abstract: "Manage the device apps whose signed requests `itemaudit serve` accepts.",
        discussion: """
            `apps add` prints the app id and its secret once: put both on the device. The log keeps \
            the secret only sealed with <data>/keys/app-secrets.key (AES-GCM), so a copy of the log \
            cannot sign requests; back that key file up with the data directory.

            Example:
              itemaudit apps add "Anna's iPad"
              itemaudit apps revoke app-3f2a9c1d
            """,
        subcommands: [AppsAdd.self, AppsList.self, AppsRevoke.self]
    )
}

struct AppsAdd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Register an app and print its id and secret (shown once).",
        discussion: """
            Example:
              itemaudit apps add "Anna's iPad" --format json
            """)

    @Argument(help: "What the app is (device, owner).") var name: String
    @Option(help: "The app id (default: app- and 8 random hex digits).") var id: String?
    @OptionGroup var data: DataDirectoryOption
    @OptionGroup var output: FormatOption
    @OptionGroup var remote: ServerOption

    struct Created: Encodable {
        var appID: String
        var name: String
        var secret: String
    }

    func run() async throws {
        let appID = id ?? "app-" + UUID().uuidString.lowercased().prefix(8)
        if let server = remote.server {
            try await remote.run(server) { client in
                let answer = try await client.expect(
                    201, "POST", "/v1/admin/apps",
                    json: ["name": name, "appID": appID, "commandID": UsersCommand.commandID("apps-add")],
                    doing: "add app \(appID)")
                print(created: Created(appID: appID, name: name, secret: answer["secret"] as? String ?? ""))
            }
            return
        }
        let service = try await ServiceAccess.open(data, logger: UsersCommand.logger)
        try await UsersCommand.change {
            let (_, secret) = try await service.registerApp(
                appID: appID, name: name, actor: UsersCommand.actor, commandID: UsersCommand.commandID("apps-add"))
            print(created: Created(appID: appID, name: name, secret: secret))
        }
        try await service.close()
    }

    private func print(created: Created) {
        switch output.format {
        case .json: Swift.print(JSONOutput.text(created), terminator: "")
        case .table, .csv:
            Swift.print(
                "app id: \(created.appID)\nsecret: \(created.secret)\n(the secret is not shown again: store it on the device)"
            )
        }
    }
}

struct AppsList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List apps (never their secrets).",
        discussion: """
            Example:
              itemaudit apps list
            """)

    @OptionGroup var data: DataDirectoryOption
    @OptionGroup var output: FormatOption
    @OptionGroup var remote: ServerOption

    struct Row: Encodable {
        var appID: String
        var name: String
        var revoked: Bool
    }

    func run() async throws {
        var rows: [Row] = []
        if let server = remote.server {
            try await remote.run(server) { client in
                let answer = try await client.expect(200, "GET", "/v1/admin/apps", doing: "list apps")
                for app in answer["apps"] as? [[String: Any]] ?? [] {
                    rows.append(
                        Row(
                            appID: app["appID"] as? String ?? "", name: app["name"] as? String ?? "",
                            revoked: app["revoked"] as? Bool ?? false))
                }
            }
        } else {
            let service = try await ServiceAccess.open(data, logger: UsersCommand.logger)
            rows = service.identity.snapshot().apps.values.sorted { $0.appID < $1.appID }.map {
                Row(appID: $0.appID, name: $0.name, revoked: $0.revoked)
            }
            try await service.close()
        }
        switch output.format {
        case .json: print(JSONOutput.text(rows), terminator: "")
        case .table, .csv:
            var table = TextTable(columns: ["app", "name", "revoked"])
            for row in rows { table.append([row.appID, row.name, row.revoked ? "yes" : "no"]) }
            print(output.render(table), terminator: "")
        }
    }
}

struct AppsRevoke: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke", abstract: "Revoke an app: its requests are refused from now on.",
        discussion: """
            Example:
              itemaudit apps revoke app-3f2a9c1d --reason "device lost"
            """)

    @Argument(help: "The app id.") var appID: String
    @Option(help: "Why (kept in the log for auditors).") var reason = ""
    @OptionGroup var data: DataDirectoryOption
    @OptionGroup var remote: ServerOption

    func run() async throws {
        if let server = remote.server {
            try await remote.run(server) { client in
                _ = try await client.expect(
                    200, "POST", "/v1/admin/apps/\(AdminClient.segment(appID))/revoke",
                    json: ["reason": reason, "commandID": UsersCommand.commandID("apps-revoke")],
                    doing: "revoke app \(appID)")
                print("revoked app \(appID)")
            }
            return
        }
        let service = try await ServiceAccess.open(data, logger: UsersCommand.logger)
        try await UsersCommand.change {
            _ = try await service.execute(
                identity: .revokeApp(AppRevoked(appID: appID, reason: reason)),
                commandID: UsersCommand.commandID("apps-revoke"), actor: UsersCommand.actor)
            print("revoked app \(appID)")
        }
        try await service.close()
    }
}
