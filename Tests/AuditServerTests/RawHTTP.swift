import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One HTTP/1.1 exchange over a fresh loopback socket, bytes exactly as given: for requests a
/// well-behaved client would not send (absolute form, odd paths, a lying Host, oversized bodies).
enum RawHTTP {
    struct Answer {
        var status: Int
        var text: String
    }

    /// Sends `head` (the request line and headers, without the blank line) and `body`, then reads
    /// the answer until the server closes (the request asks it to). The socket blocks, so on a
    /// thread of its own: the in-process server's handlers need the concurrency pool's threads.
    static func exchange(port: Int, head: String, body: [UInt8] = []) async throws -> Answer {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try blockingExchange(port: port, head: head, body: body) })
            }
        }
    }

    /// Connects, sends `bytes` (a head that never ends, say) and waits for the server to close the
    /// connection: true when it did, false when `patience` seconds passed first (a bound so a
    /// broken server cannot hang the test, not a measure).
    static func closedByServer(port: Int, sending bytes: [UInt8], patience: Int = 30) async throws -> Bool {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(
                    with: Result {
                        let fd = try connected(port: port, timeoutSeconds: patience)
                        defer { close(fd) }
                        if !bytes.isEmpty { _ = sendAll(fd, bytes) }
                        var buffer = [UInt8](repeating: 0, count: 4096)
                        while true {
                            let count = recv(fd, &buffer, buffer.count, 0)
                            if count == 0 { return true }
                            if count < 0 { return errno == ECONNRESET }
                        }
                    })
            }
        }
    }

    private static func connected(port: Int, timeoutSeconds: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw FixtureError("socket() failed") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(fd)
            throw FixtureError("cannot connect to port \(port)")
        }
        return fd
    }

    private static func blockingExchange(port: Int, head: String, body: [UInt8]) throws -> Answer {
        // A bound so a hung server cannot hang the suite, not a measure. The in-process server's
        // handlers share the 2-thread concurrency pool with CPU-bound tests running beside it (the
        // workload generator's), which can hold both threads for tens of seconds.
        let fd = try connected(port: port, timeoutSeconds: 180)
        defer { close(fd) }
        // The server may answer (413) and close before reading a body: a failed send is not an error.
        _ = sendAll(fd, Array((head + "\r\nConnection: close\r\n\r\n").utf8))
        if !body.isEmpty { _ = sendAll(fd, body) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received.append(contentsOf: buffer[..<count])
        }
        let text = String(decoding: received, as: UTF8.self)
        // "HTTP/1.1 200 OK"
        let parts = text.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else {
            throw FixtureError("no HTTP answer to \(head.prefix(80)): \(text.prefix(200))")
        }
        return Answer(status: status, text: text)
    }

    private static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count <= 0 { return false }
            sent += count
        }
        return true
    }
}
