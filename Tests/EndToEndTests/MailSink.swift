import Foundation
import Testing

/// An SMTP sink on loopback (`tools/mail/smtp-sink.py`, aiosmtpd) and a sendmail for `serve
/// --sendmail` that hands mail to it (msmtp with a configuration of its own). Both are installed
/// by tools/setup; a test that needs them fails, naming what is missing, rather than skipping.
final class MailSink {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    let directory: URL
    let mailbox: URL
    let port: Int
    private let process = Process()
    private let input = Pipe()

    init() throws {
        guard Self.which("msmtp") != nil else {
            throw Missing(description: "msmtp is not installed (run tools/setup: Debian package msmtp)")
        }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("mail-\(UUID().uuidString)")
        mailbox = directory.appendingPathComponent("box")
        try FileManager.default.createDirectory(at: mailbox, withIntermediateDirectories: true)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", Self.repository.appendingPathComponent("tools/mail/smtp-sink.py").path, mailbox.path,
        ]
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        var text = ""
        while !text.contains("\n") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard text.hasPrefix("port "), let port = Int(text.dropFirst(5).prefix { $0.isNumber }) else {
            process.waitUntilExit()
            let reason = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw Missing(
                description: "the SMTP sink did not start (aiosmtpd missing? run tools/setup): \(reason.suffix(400))")
        }
        self.port = port
    }

    /// A sendmail script handing messages to the sink through msmtp; the first `failing` runs
    /// exit 75 (temporary failure) without sending, as an unreachable mail server would.
    func sendmail(failing: Int = 0) throws -> URL {
        let configuration = directory.appendingPathComponent("msmtprc")
        try """
        defaults
        auth off
        tls off
        account sink
        host 127.0.0.1
        port \(port)
        from itemaudit@localhost
        account default : sink

        """.write(to: configuration, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: configuration.path)
        let counter = directory.appendingPathComponent("runs")
        let script = directory.appendingPathComponent("sendmail")
        try """
        #!/bin/sh
        echo run >> '\(counter.path)'
        if [ "$(wc -l < '\(counter.path)')" -le \(failing) ]; then exit 75; fi
        exec msmtp -C '\(configuration.path)' "$@"

        """.write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: script.path)
        return script
    }

    /// How many times the sendmail script ran.
    var sendmailRuns: Int {
        let text = (try? String(contentsOf: directory.appendingPathComponent("runs"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").count
    }

    /// The messages received so far, in arrival order.
    func messages() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: mailbox.path)) ?? []
        return names.filter { $0.hasSuffix(".eml") && !$0.hasPrefix(".") }
            .sorted { Int($0.dropLast(4)) ?? 0 < Int($1.dropLast(4)) ?? 0 }
            .compactMap { try? String(contentsOf: mailbox.appendingPathComponent($0), encoding: .utf8) }
    }

    /// Waits until `count` messages arrived (at most `seconds`), and returns them.
    func waitForMessages(_ count: Int, seconds: Double = 90) async throws -> [String] {
        let deadline = Date().addingTimeInterval(seconds)
        while messages().count < count, Date() < deadline { try await Task.sleep(for: .milliseconds(200)) }
        return messages()
    }

    /// Stops the sink and removes its files.
    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }

    static func which(_ tool: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(tool)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }
}
