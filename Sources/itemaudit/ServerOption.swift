import ArgumentParser
import AuditServer
import Foundation
import ServerClient

/// `--server URL` on `users` and `apps`: make the change through a running `itemaudit serve`'s
/// admin routes, since the server holds the log and a second writer may not open it.
struct ServerOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Go through the admin routes of `itemaudit serve` at this URL (http://HOST:PORT) instead of the data directory: the admin's name and password from $ITEMAUDIT_USER and $ITEMAUDIT_PASSWORD (else asked for), the device app from $ITEMAUDIT_APP and $ITEMAUDIT_SECRET, as `sign` takes them.",
            valueName: "url"))
    var server: String?

    /// An admin session on the server: the app from the environment, the admin's credentials from
    /// the environment or the terminal (never an argument, never echoed).
    func session(_ server: String) async throws -> AdminClient {
        let environment = ProcessInfo.processInfo.environment
        guard let appID = environment["ITEMAUDIT_APP"], !appID.isEmpty else {
            throw CLIFailure.badInput("no app id for --server (set ITEMAUDIT_APP to an app `apps add` registered)")
        }
        guard let secret = RequestSigning.secret(hex: environment["ITEMAUDIT_SECRET"] ?? "") else {
            throw CLIFailure.badInput(
                "no usable secret for --server (set ITEMAUDIT_SECRET to the hex secret `apps add` printed)")
        }
        let username: String
        if let name = environment["ITEMAUDIT_USER"], !name.isEmpty {
            username = name
        } else if isatty(0) == 1 {
            print("admin user name: ", terminator: "")
            username = readLine(strippingNewline: true) ?? ""
        } else {
            throw CLIFailure.badInput(
                "no admin user for --server (set ITEMAUDIT_USER, or run on a terminal to be asked)")
        }
        let password: String
        if let given = environment["ITEMAUDIT_PASSWORD"], !given.isEmpty {
            password = given
        } else if isatty(0) == 1, let typed = getpass("password of \(username): ") {
            password = String(cString: typed)
        } else {
            throw CLIFailure.badInput(
                "no admin password for --server (set ITEMAUDIT_PASSWORD, or run on a terminal to be asked)")
        }
        let client: AdminClient
        do {
            client = try AdminClient(server: server, app: AdminClient.App(appID: appID, secret: secret))
        } catch let failure as AdminClient.Failure {
            throw CLIFailure.badInput(failure.description)
        }
        do {
            try await client.logIn(username: username, password: password)
        } catch {
            await client.close()
            throw (error as? AdminClient.Failure).map { CLIFailure.badInput($0.description) } ?? error
        }
        return client
    }

    /// Runs `body` with an admin session and closes it; a refusal becomes exit code 2 with the server's reason.
    func run(_ server: String, _ body: (AdminClient) async throws -> Void) async throws {
        let client = try await session(server)
        do {
            try await body(client)
            await client.close()
        } catch let failure as AdminClient.Failure {
            await client.close()
            throw CLIFailure.badInput(failure.description)
        } catch {
            await client.close()
            throw error
        }
    }
}

extension AdminClient {
    /// Sends a request and returns its answer's JSON object, or fails with the server's reason
    /// when the status is not `expected`.
    func expect(
        _ expected: Int, _ method: String, _ path: String, json: [String: Any]? = nil, doing: String
    ) async throws -> [String: Any] {
        let answer = if let json { try await send(method, path, json: json) } else { try await send(method, path) }
        guard answer.status == expected else { throw Self.failure(answer, doing: doing) }
        return answer.object
    }

    /// A path segment with everything but unreserved characters percent-encoded.
    static func segment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~")))
            ?? text
    }
}
