import AuditService
import Foundation
import Logging
import NIOPosix

/// Mails the manufacturer an acknowledgement of each accepted reception (seed 4.2.5) through the
/// machine's sendmail interface (`serve --sendmail PATH`, run as `PATH -t -i` with the message on
/// its standard input), when the product's datasheet names the manufacturer's e-mail contact.
///
/// A reception's command is answered without waiting: the mail is queued here and sent in the
/// background, a failed send retried with growing delays a bounded number of times. Logs name
/// the reception and what failed, never the address (nor sendmail's own output, which may hold it).
actor AcknowledgementMailer {
    /// How often and how patiently a mail is tried.
    struct Policy: Sendable {
        /// Tries in all, the first included.
        var attempts = 5
        /// The delay before the second try; each later one doubles it, up to ``maxDelay``.
        var firstDelay: Duration = .seconds(5)
        var maxDelay: Duration = .seconds(600)
        /// A sendmail still running after this is stopped, and the try counts as failed.
        var timeout: Duration = .seconds(60)
        /// Receptions waiting or being retried at most; more are dropped (and logged).
        var queueLimit = 1000

        /// The delay after failed try `attempt` (1 for the first).
        func delay(after attempt: Int) -> Duration {
            var delay = firstDelay
            for _ in 1..<max(attempt, 1) where delay < maxDelay { delay *= 2 }
            return min(delay, maxDelay)
        }
    }

    /// The outcome of one try.
    enum Outcome: Sendable, Equatable {
        case sent
        /// Nothing to send: the datasheet names no usable contact, or the reception is unknown.
        case nothingToSend
        case failed(String)
    }

    let sendmail: String
    let service: AuditService
    let policy: Policy
    let logger: Logger
    private var pending = 0

    init(sendmail: String, service: AuditService, policy: Policy = Policy(), logger: Logger) {
        self.sendmail = sendmail
        self.service = service
        self.policy = policy
        self.logger = logger
    }

    /// Queues the acknowledgement of `receptionID`; returns at once.
    func enqueue(receptionID: String) {
        guard pending < policy.queueLimit else {
            logger.error(
                "acknowledgement not queued: too many waiting",
                metadata: ["reception": "\(receptionID)", "waiting": "\(pending)"])
            return
        }
        pending += 1
        Task { await self.deliver(receptionID) }
    }

    private func deliver(_ receptionID: String) async {
        defer { pending -= 1 }
        for attempt in 1...policy.attempts {
            switch await attemptOnce(receptionID) {
            case .sent:
                logger.info("acknowledgement mailed", metadata: ["reception": "\(receptionID)", "try": "\(attempt)"])
                return
            case .nothingToSend:
                logger.debug("no acknowledgement to mail", metadata: ["reception": "\(receptionID)"])
                return
            case .failed(let reason):
                guard attempt < policy.attempts else {
                    logger.error(
                        "acknowledgement not mailed, given up",
                        metadata: ["reception": "\(receptionID)", "tries": "\(attempt)", "reason": "\(reason)"])
                    return
                }
                let delay = policy.delay(after: attempt)
                logger.warning(
                    "acknowledgement mail failed, will retry",
                    metadata: [
                        "reception": "\(receptionID)", "try": "\(attempt)", "reason": "\(reason)",
                        "retryIn": "\(delay)",
                    ])
                try? await Task.sleep(for: delay)
            }
        }
    }

    /// Composes the mail from the read model and the state now, and hands it to sendmail.
    private func attemptOnce(_ receptionID: String) async -> Outcome {
        let queries = service.queries
        let row: ReceptionRow?
        do {
            row = try await NIOThreadPool.singleton.runIfActive { try queries.reception(id: receptionID) }
        } catch {
            return .failed("the reception could not be read (\(type(of: error)))")
        }
        guard let row, let recipient = await service.manufacturerEmail(gtin: row.gtin) else { return .nothingToSend }
        let mail = AcknowledgementMail(reception: row, recipient: recipient, date: Date())
        return await Self.run(sendmail, input: Data(mail.message.utf8), timeout: policy.timeout)
    }

    /// Runs `path -t -i` with `input` on its standard input; its output is discarded.
    static func run(_ path: String, input: Data, timeout: Duration) async -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["-t", "-i"]
        let stdin = Pipe()
        process.standardInput = stdin
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let watchdog = Task {
            try? await Task.sleep(for: timeout)
            if process.isRunning { process.terminate() }
        }
        defer { watchdog.cancel() }
        let status: Int32? = await withCheckedContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(returning: nil)
                return
            }
            // A message is a few kilobytes, well within a pipe's buffer: the write does not wait.
            try? stdin.fileHandleForWriting.write(contentsOf: input)
            try? stdin.fileHandleForWriting.close()
        }
        guard let status else { return .failed("sendmail could not be started") }
        if process.terminationReason == .uncaughtSignal { return .failed("sendmail was stopped (signal \(status))") }
        return status == 0 ? .sent : .failed("sendmail exited with status \(status)")
    }
}
