import ArgumentParser
import AuditServer
import AuditService
import Foundation
import Logging

/// `itemaudit serve`: the HTTP API over a data directory.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the HTTP API (devices, office, stewards, auditors) over a data directory.",
        discussion: """
            Plain HTTP only on loopback; give --tls-cert and --tls-key (PEM) to serve HTTPS on other \
            addresses, and --public-url for each URL people and devices reach it by: a request naming \
            any other host (not loopback) is refused. Every request but /health, /openapi.yaml and \
            /metrics is signed by a device app (itemaudit apps add) and, after POST /v1/sessions, \
            carries the session token (see `itemaudit sign`), or comes from a browser logged in at \
            /login with its session's X-CSRF-Token; docs/security.md has the whole model. SIGTERM or \
            SIGINT stops accepting requests, finishes the ones in flight \
            (their appends are durable) and closes the log. Batches past their validity are expired \
            every minute.

            Example:
              itemaudit serve --data ./itemaudit-data --port 8080
            """
    )

    @OptionGroup var data: DataDirectoryOption
    @OptionGroup var validity: BatchValidityOption
    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port (0 picks a free one; the line on stdout names it).") var port = 8080
    @Option(help: ArgumentHelp("PEM certificate chain for HTTPS.", valueName: "file")) var tlsCert: String?
    @Option(help: ArgumentHelp("PEM private key for HTTPS.", valueName: "file")) var tlsKey: String?
    @Option(help: "How long a session lasts from login, in minutes (not extended by use).") var sessionMinutes = 480
    @Option(help: "Log level: trace, debug, info, notice, warning, error.") var logLevel = "info"
    @Option(
        name: .customLong("public-url"),
        help: ArgumentHelp(
            "A URL the server is reached by (repeatable); requests naming another Host are refused (loopback names always pass).",
            valueName: "url"))
    var publicURLs: [String] = []
    @Option(
        name: .customLong("trusted-proxy"),
        help: ArgumentHelp(
            "The address of a reverse proxy whose X-Forwarded-For names the client (repeatable).", valueName: "address")
    )
    var trustedProxies: [String] = []
    @Option(
        help: ArgumentHelp(
            "How long a connection may take to send a whole request head, and the grace before its body must keep 1 KiB/s.",
            valueName: "seconds"))
    var requestTimeoutSeconds = 10
    @OptionGroup var logKey: LogKeyOption
    @Option(
        name: .customLong("log-origin"),
        help: ArgumentHelp(
            "The log's name in its checkpoints (default: the first --public-url without its scheme).",
            valueName: "origin"))
    var logOrigin: String?
    @Option(
        help: ArgumentHelp(
            "Seconds between signed checkpoints while the log grows, once the log key exists or --log-origin or --public-url names it (0: none).",
            valueName: "seconds"))
    var checkpointSeconds = 5
    @Option(
        help: ArgumentHelp(
            "The machine's sendmail interface (run as PATH -t -i): each accepted reception's acknowledgement is mailed to the manufacturer's e-mail contact its datasheet names (manufacturer.contactPoint.email).",
            valueName: "path"))
    var sendmail: String?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
        guard (tlsCert == nil) == (tlsKey == nil) else {
            throw ValidationError("give both --tls-cert and --tls-key, or neither")
        }
        for url in publicURLs where ServerConfiguration.authority(ofPublicURL: url) == nil {
            throw ValidationError(
                "--public-url '\(url)' is not an http or https URL with a host (e.g. https://audit.example.com)")
        }
        guard sessionMinutes > 0 else { throw ValidationError("--session-minutes must be positive") }
        guard (1...3600).contains(requestTimeoutSeconds) else {
            throw ValidationError("--request-timeout-seconds must be 1 to 3600")
        }
        guard (0...86400).contains(checkpointSeconds) else {
            throw ValidationError("--checkpoint-seconds must be 0 to 86400")
        }
        if let sendmail, !FileManager.default.isExecutableFile(atPath: sendmail) {
            throw ValidationError("--sendmail '\(sendmail)' is not an executable file (e.g. /usr/sbin/sendmail)")
        }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be trace, debug, info, notice, warning or error")
        }
    }

    func run() async throws {
        var logger = Logger(label: "itemaudit.serve", factory: ServerLogHandler.init)
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        var configuration = ServerConfiguration(
            host: host, port: port, sessionLifetime: .seconds(sessionMinutes * 60))
        if let tlsCert, let tlsKey { configuration.tls = (tlsCert, tlsKey) }
        configuration.publicURLs = publicURLs
        configuration.trustedProxies = trustedProxies
        configuration.requestHeadTimeout = .seconds(requestTimeoutSeconds)
        configuration.sendmailPath = sendmail
        if configuration.tls == nil, !configuration.isLoopback {
            throw CLIFailure.badInput(
                "plain HTTP is only served on loopback; give --tls-cert and --tls-key to listen on \(host)")
        }
        if !data.location.isPostgres {
            runTasksOnEventLoops()
            configuration.handlesOnEventLoops = true
        }
        let service = try await ServiceAccess.open(data, configuration: try validity.configuration(), logger: logger)
        let scheme = configuration.tls == nil ? "http" : "https"
        let dataPath = data.url.path
        do {
            let app = try buildApplication(service: service, configuration: configuration, logger: logger) { port in
                print("itemaudit serve: listening on \(scheme)://\(host):\(port) (data \(dataPath))")
                fflush(nil)
            }
            let checkpoints = CheckpointSchedule(
                directory: DataDirectory(data.url), service: service,
                identity: .init(keyFile: logKey.file, origin: logOrigin, publicURL: publicURLs.first),
                seconds: checkpointSeconds, logger: logger
            ).start()
            defer { checkpoints?.cancel() }
            try await app.runService()
        } catch let error as ServerSetupError {
            throw CLIFailure.badInput(error.message)
        }
        try await service.close()
        print("itemaudit serve: stopped; the log is closed")
    }
}
