import ArgumentParser
import AuditServer
import Foundation

/// `itemaudit sign METHOD PATH`: the headers of a signed request, Content-Type included, for curl.
struct SignCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Print the signature headers of one request to `itemaudit serve` (for curl).",
        discussion: """
            The app id comes from --app or $ITEMAUDIT_APP, the secret (as `apps add` printed it) from \
            $ITEMAUDIT_SECRET or --secret-file, never from an argument. Prints curl arguments one per \
            line (-H, then the header): read them into an array and pass them to curl. The signature \
            covers the body and the media type of the Content-Type, so the Content-Type header printed \
            (application/json with --body-file unless --content-type says otherwise; none without a \
            body) is the one to send. Each run uses a new transaction id, so sign every request anew, \
            resends included.

            Example:
              export ITEMAUDIT_APP=app-1 ITEMAUDIT_SECRET=…
              mapfile -t H < <(itemaudit sign POST /v1/commands --body-file bundle.json --token "$TOKEN")
              curl -s "${H[@]}" --data-binary @bundle.json http://127.0.0.1:8080/v1/commands
            """
    )

    @Argument(help: "The HTTP method (GET, POST, PUT, DELETE).") var method: String
    @Argument(help: "The path with its query exactly as sent, e.g. /v1/batches?status=1.") var path: String
    @Option(help: "The app id (default: $ITEMAUDIT_APP).") var app: String?
    @Option(help: ArgumentHelp("A file holding the app secret (default: $ITEMAUDIT_SECRET).", valueName: "file"))
    var secretFile: String?
    @Option(help: ArgumentHelp("The body to send, from this file (none when absent).", valueName: "file"))
    var bodyFile: String?
    @Option(
        help: ArgumentHelp(
            "The Content-Type to sign and print (default: application/json with --body-file, none without).",
            valueName: "type"))
    var contentType: String?
    @Option(help: "A session token: adds Authorization: Bearer.") var token: String?
    @Option(help: "Output: curl (arguments one per line) or json (header → value).") var format = "curl"

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let appID = app ?? environment["ITEMAUDIT_APP"], !appID.isEmpty else {
            throw CLIFailure.badInput("no app id (give --app or set ITEMAUDIT_APP)")
        }
        let secretText: String
        if let secretFile {
            guard let text = try? String(contentsOfFile: secretFile, encoding: .utf8) else {
                throw CLIFailure.badInput("cannot read \(secretFile) (check the path)")
            }
            secretText = text.trimmingCharacters(in: .whitespacesAndNewlines)
        } else {
            secretText = environment["ITEMAUDIT_SECRET"] ?? ""
        }
        guard let secret = RequestSigning.secret(hex: secretText) else {
            throw CLIFailure.badInput(
                "no usable secret (set ITEMAUDIT_SECRET or --secret-file to the hex secret `apps add` printed)")
        }
        guard path.hasPrefix("/") else { throw CLIFailure.badInput("the path must start with / (e.g. /v1/me)") }
        var body: [UInt8] = []
        if let bodyFile {
            guard let data = FileManager.default.contents(atPath: bodyFile) else {
                throw CLIFailure.badInput("cannot read \(bodyFile) (check the path)")
            }
            body = [UInt8](data)
        }
        if let contentType, contentType.isEmpty || contentType.contains(where: \.isNewline) {
            throw CLIFailure.badInput("--content-type is empty or has a line break (give a media type, e.g. text/csv)")
        }
        var headers = RequestSigning.headers(
            appID: appID, secret: secret, method: method.uppercased(), pathAndQuery: path, body: body,
            contentType: contentType ?? (bodyFile == nil ? nil : "application/json"),
            timestamp: Int64(Date().timeIntervalSince1970), transactionID: UUID().uuidString.lowercased())
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        switch format {
        case "json":
            print(
                JSONOutput.text(Dictionary(headers.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })),
                terminator: "")
        case "curl":
            for header in headers { print("-H\n\(header.name): \(header.value)") }
        default:
            throw CLIFailure.badInput("unknown --format '\(format)' (use curl or json)")
        }
    }
}
