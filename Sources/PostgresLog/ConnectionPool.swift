import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

/// Connections to one database: opened on demand up to ``maximum``, reused, dropped when broken.
///
/// Leased from synchronous code (the store's reads, which block the calling thread and must not
/// run on an event loop) and from async code (appends) alike; the network work itself runs on
/// NIO's event loops either way, so a blocked caller never holds up the connection it waits for.
final class ConnectionPool: @unchecked Sendable {
    // @unchecked: `idle`, `open`, `waiters` and `nextID` are guarded by `lock`.

    let url: PostgresStoreURL
    let maximum: Int
    /// How long a lease waits for a free connection, and a connect for the server.
    let timeout: TimeAmount
    let logger: Logger
    private let configuration: PostgresConnection.Configuration
    private let group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton

    private let lock = NSLock()
    private var idle: [PostgresConnection] = []
    private var open = 0
    private var nextID = 0
    private var waiters: [(id: Int, wake: @Sendable () -> Void)] = []
    private var closed = false

    init(url: PostgresStoreURL, maximum: Int, timeout: TimeAmount, logger: Logger) throws {
        self.url = url
        self.maximum = max(1, maximum)
        self.timeout = timeout
        self.logger = logger
        var configuration: PostgresConnection.Configuration
        if url.isUnixSocket {
            configuration = .init(
                unixSocketPath: url.unixSocketPath, username: url.user, password: url.password, database: url.database)
        } else {
            configuration = .init(
                host: url.host, port: url.port, username: url.user, password: url.password, database: url.database,
                tls: try Self.tls(for: url))
        }
        configuration.options.connectTimeout = url.connectTimeoutSeconds.map { .seconds(Int64($0)) } ?? timeout
        // No JIT: the store sends many short statements, and before the table has statistics
        // (after a bulk append or a store copy, until autovacuum's ANALYZE) their estimated
        // costs pass jit_above_cost, so each page of a replay compiled its plan with LLVM
        // before running it: a compilation per page, for statements too short to repay it.
        configuration.options.additionalStartupParameters = [("jit", "off")]
        self.configuration = configuration
    }

    /// libpq's sslmode as postgres-nio's TLS setting: `disable`/`allow`/`prefer` connect in the clear
    /// unless the server insists, `require` encrypts without checking the certificate, `verify-*` check it.
    private static func tls(for url: PostgresStoreURL) throws -> PostgresConnection.Configuration.TLS {
        var tls = TLSConfiguration.makeClientConfiguration()
        switch url.sslMode {
        case "disable", "allow": return .disable
        case "prefer", "require": tls.certificateVerification = .none
        case "verify-ca": tls.certificateVerification = .noHostnameVerification
        default: tls.certificateVerification = .fullVerification
        }
        let context: NIOSSLContext
        do { context = try NIOSSLContext(configuration: tls) } catch {
            throw PostgresLogError(.unreachable, "cannot set up TLS for \(url.redacted): \(error)")
        }
        return url.sslMode == "prefer" ? .prefer(context) : .require(context)
    }

    deinit {
        // A connection must be closed before it goes away: each is kept alive until its close completes.
        for connection in idle { connection.close().whenComplete { _ in _ = connection } }
    }

    /// Leases a connection for `body`, blocking the calling thread while it waits or connects.
    /// - Throws: ``PostgresLogError`` `.unreachable` when no connection can be had in time.
    func withConnection<R>(_ body: (PostgresConnection) throws -> R) throws -> R {
        let connection = try acquireBlocking()
        do {
            let result = try body(connection)
            release(connection)
            return result
        } catch {
            release(connection)
            throw error
        }
    }

    /// Leases one connection, waiting as ``withConnection(_:)-1`` does, plus up to `extra` more
    /// that are idle or can be opened at once (never waiting for one), for reads that spread
    /// their pages over several connections.
    func withConnections<R>(extra: Int, _ body: ([PostgresConnection]) throws -> R) throws -> R {
        var connections = [try acquireBlocking()]
        defer { for connection in connections { release(connection) } }
        while connections.count <= extra, let connection = try? leaseWithoutWaiting() {
            connections.append(connection)
        }
        return try body(connections)
    }

    /// An idle connection, or a new one when the pool has room; nil when all are busy or the
    /// connect fails.
    private func leaseWithoutWaiting() throws -> PostgresConnection? {
        switch try nextStep(waiterID: nil, wake: nil) {
        case .use(let connection): return connection
        case .connect(let id):
            do {
                return try PostgresConnection.connect(
                    on: group.next(), configuration: configuration, id: id, logger: logger
                ).wait()
            } catch {
                _ = connectFailed(error)
                return nil
            }
        case .wait: return nil
        }
    }

    /// Leases a connection for `body` without blocking a thread.
    func withConnection<R: Sendable>(_ body: (PostgresConnection) async throws -> R) async throws -> R {
        let connection = try await acquire()
        do {
            let result = try await body(connection)
            release(connection)
            return result
        } catch {
            release(connection)
            throw error
        }
    }

    /// A connection outside the pool (for `LISTEN`, which must keep its own), closed by the caller.
    func connectDedicated() async throws -> PostgresConnection {
        let id = lock.withLock {
            nextID += 1
            return nextID
        }
        do {
            return try await PostgresConnection.connect(
                on: group.next(), configuration: configuration, id: id, logger: logger
            ).get()
        } catch {
            throw PostgresLogError(
                .unreachable,
                "cannot reach the database at \(url.redacted): \(Self.describe(error)) (is the server running? check the --store URL)",
                context: ["url": url.redacted])
        }
    }

    /// Closes every idle connection; leased ones are closed when they come back.
    func close() {
        let connections = lock.withLock {
            closed = true
            defer { idle = [] }
            return idle
        }
        for connection in connections { try? connection.close().wait() }
    }

    private enum Step {
        case use(PostgresConnection)
        case connect(Int)
        case wait
    }

    private func nextStep(waiterID: Int?, wake: (@Sendable () -> Void)?) throws -> Step {
        try lock.withLock {
            guard !closed else { throw PostgresLogError(.unreachable, "the store for \(url.redacted) is closed") }
            while let connection = idle.popLast() {
                if !connection.isClosed { return .use(connection) }
                open -= 1
            }
            if open < maximum {
                open += 1
                nextID += 1
                return .connect(nextID)
            }
            if let waiterID, let wake { waiters.append((waiterID, wake)) }
            return .wait
        }
    }

    private func acquireBlocking() throws -> PostgresConnection {
        let deadline = NIODeadline.now() + timeout
        let semaphore = DispatchSemaphore(value: 0)
        let waiterID = lock.withLock {
            nextID += 1
            return -nextID
        }
        while true {
            switch try nextStep(waiterID: waiterID, wake: { semaphore.signal() }) {
            case .use(let connection): return connection
            case .connect(let id):
                do {
                    return try PostgresConnection.connect(
                        on: group.next(), configuration: configuration, id: id, logger: logger
                    ).wait()
                } catch { throw connectFailed(error) }
            case .wait:
                let remaining = deadline - .now()
                let microseconds = max(0, remaining.nanoseconds / 1000)
                if semaphore.wait(timeout: .now() + .microseconds(Int(microseconds))) == .timedOut {
                    let stillWaiting = lock.withLock {
                        let before = waiters.count
                        waiters.removeAll { $0.id == waiterID }
                        return waiters.count < before
                    }
                    if stillWaiting { throw poolExhausted() }
                }
            }
        }
    }

    private func acquire() async throws -> PostgresConnection {
        let deadline = NIODeadline.now() + timeout
        let waiterID = lock.withLock {
            nextID += 1
            return -nextID
        }
        while true {
            if NIODeadline.now() > deadline { throw poolExhausted() }
            let step: Step = try await withCheckedThrowingContinuation { continuation in
                let loop = group.next()
                do {
                    let resumed = NIOLockedValueBox(false)
                    let wake: @Sendable () -> Void = {
                        let first = resumed.withLockedValue { done in
                            let first = !done
                            done = true
                            return first
                        }
                        if first {
                            continuation.resume(returning: .wait)
                        }
                    }
                    let step = try nextStep(waiterID: waiterID, wake: wake)
                    switch step {
                    case .wait:
                        // Wakes at the deadline when no connection comes back before it.
                        loop.scheduleTask(deadline: deadline) {
                            self.lock.withLock { self.waiters.removeAll { $0.id == waiterID } }
                            wake()
                        }
                    default:
                        resumed.withLockedValue { $0 = true }
                        continuation.resume(returning: step)
                    }
                } catch {
                    continuation.resume(throwing: error)
                }
            }
            switch step {
            case .use(let connection): return connection
            case .connect(let id):
                do {
                    return try await PostgresConnection.connect(
                        on: group.next(), configuration: configuration, id: id, logger: logger
                    ).get()
                } catch { throw connectFailed(error) }
            case .wait: continue
            }
        }
    }

    private func release(_ connection: PostgresConnection) {
        let (wake, closeIt) = lock.withLock { () -> ((@Sendable () -> Void)?, Bool) in
            if connection.isClosed || closed {
                open -= 1
            } else {
                idle.append(connection)
            }
            let wake = waiters.isEmpty ? nil : waiters.removeFirst().wake
            return (wake, closed && !connection.isClosed)
        }
        if closeIt { connection.close().whenComplete { _ in _ = connection } }
        wake?()
    }

    private func connectFailed(_ error: any Error) -> PostgresLogError {
        lock.withLock { open -= 1 }
        let wake = lock.withLock { waiters.isEmpty ? nil : waiters.removeFirst().wake }
        wake?()
        return PostgresLogError(
            .unreachable,
            "cannot reach the database at \(url.redacted): \(Self.describe(error)) (is the server running? check the --store URL)",
            context: ["url": url.redacted])
    }

    private func poolExhausted() -> PostgresLogError {
        PostgresLogError(
            .unreachable,
            "no free connection to \(url.redacted) within \(timeout.nanoseconds / 1_000_000) ms (all \(maximum) are busy: raise --store-pool-size or --store-timeout)",
            context: ["url": url.redacted])
    }

    /// The server's own message for a PostgreSQL error, or the error's description.
    static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            if let underlying = error.underlying { return "\(underlying)" }
            return "\(error.code)"
        }
        if let error = error as? PostgresLogError { return error.message }
        return "\(error)"
    }
}
