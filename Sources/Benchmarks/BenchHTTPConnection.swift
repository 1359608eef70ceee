import AuditServer
import NIOCore
import NIOHTTP1
import NIOPosix

/// One simulated client's keep-alive HTTP/1.1 connection to the server under test: a request at
/// a time, written as one buffer, its answer read by Content-Length.
///
/// The client shares the machine's cores with the server it measures, so every cycle it spends is
/// taken from the server's figure. async-http-client's pool, request state machines and streaming
/// bodies, and NIO's general HTTP encoder and decoder after them, do much more than a device
/// needs: this client writes the request's bytes itself and reads only what a device needs from
/// an answer, its status and its body.
final class BenchHTTPConnection: @unchecked Sendable {
    // @unchecked: `channel` is set once by the one task that uses the connection; the reader
    // lives on the channel's event loop.
    private let host: String
    private let port: Int
    /// The event loop the connection lives on; a task that uses it should prefer ``executor``.
    let eventLoop: any EventLoop
    /// Runs the using task on ``eventLoop`` (pass it as the task's executor preference).
    let executor: EventLoopTaskExecutor
    private var channel: (any Channel)?
    private var reader: ResponseReader?

    init(host: String, port: Int) {
        self.host = host
        self.port = port
        eventLoop = MultiThreadedEventLoopGroup.singleton.next()
        executor = EventLoopTaskExecutor(eventLoop)
    }

    struct Closed: Error, CustomStringConvertible {
        var description: String { "the server closed the connection" }
    }

    /// Sends the request and waits for the whole response.
    func send(_ method: HTTPMethod, _ uri: String, headers: [(String, String)], body: [UInt8]) async throws
        -> (status: Int, body: ByteBuffer)
    {
        let (channel, reader) = try await connected()
        var request = channel.allocator.buffer(capacity: 256 + uri.utf8.count + body.count)
        request.writeString("\(method.rawValue) \(uri) HTTP/1.1\r\nHost: \(host)\r\n")
        for (name, value) in headers {
            request.writeString(name)
            request.writeStaticString(": ")
            request.writeString(value)
            request.writeStaticString("\r\n")
        }
        if !body.isEmpty || method == .POST || method == .PUT {
            request.writeString("Content-Length: \(body.count)\r\n")
        }
        request.writeStaticString("\r\n")
        request.writeBytes(body)
        let promise = channel.eventLoop.makePromise(of: (status: Int, body: ByteBuffer).self)
        let bytes = request
        channel.eventLoop.execute {
            reader.expect(promise)
            channel.writeAndFlush(bytes, promise: nil)
        }
        return try await promise.futureResult.get()
    }

    /// Closes the connection (a later ``send`` opens another).
    func close() async {
        guard let channel else { return }
        self.channel = nil
        reader = nil
        try? await channel.close()
    }

    private func connected() async throws -> (any Channel, ResponseReader) {
        if let channel, let reader, channel.isActive { return (channel, reader) }
        let reader = ResponseReader()
        let channel = try await ClientBootstrap(group: eventLoop)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in channel.pipeline.addHandler(reader) }
            .connect(host: host, port: port).get()
        self.channel = channel
        self.reader = reader
        return (channel, reader)
    }
}

/// Reads one response at a time from the connection's bytes: the status line, the headers (for
/// Content-Length) and that many bytes of body, then completes the request's promise.
///
/// The server under test answers every request the devices send with a Content-Length; an
/// answer without one (chunked) fails the request with a message that says so, rather than
/// being misread.
private final class ResponseReader: ChannelInboundHandler, @unchecked Sendable {
    // @unchecked: every property is touched on the channel's event loop only.
    typealias InboundIn = ByteBuffer

    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    private var pending: EventLoopPromise<(status: Int, body: ByteBuffer)>?
    private var received = ByteBuffer()

    func expect(_ promise: EventLoopPromise<(status: Int, body: ByteBuffer)>) {
        pending = promise
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var part = unwrapInboundIn(data)
        received.writeBuffer(&part)
        do {
            guard let response = try Self.response(in: &received) else { return }
            let promise = pending
            pending = nil
            promise?.succeed(response)
            if received.readableBytes == 0 { received.clear() }
        } catch {
            errorCaught(context: context, error: error)
        }
    }

    /// The first whole response in `buffer`, which it is taken from; nil until all of it came.
    static func response(in buffer: inout ByteBuffer) throws -> (status: Int, body: ByteBuffer)? {
        let head: (length: Int, status: Int, contentLength: Int)? = try buffer.withUnsafeReadableBytes { bytes in
            guard let end = headEnd(bytes) else { return nil }
            return try parseHead(UnsafeRawBufferPointer(rebasing: bytes[..<end]), length: end)
        }
        guard let head, buffer.readableBytes >= head.length + head.contentLength else { return nil }
        buffer.moveReaderIndex(forwardBy: head.length)
        guard let body = buffer.readSlice(length: head.contentLength) else { return nil }
        return (head.status, body)
    }

    /// Where the head ends: the offset just past its blank line.
    private static func headEnd(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 3..<bytes.count
        where bytes[index] == 10 && bytes[index - 1] == 13 && bytes[index - 2] == 10 && bytes[index - 3] == 13 {
            return index + 1
        }
        return nil
    }

    /// The status and Content-Length of a head (`HTTP/1.1 200 OK\r\n…\r\n\r\n`), read from
    /// its bytes (an answer's few header lines made into strings cost as much as NIO's decoder).
    private static func parseHead(_ head: UnsafeRawBufferPointer, length: Int) throws
        -> (length: Int, status: Int, contentLength: Int)
    {
        guard head.count >= 12, head.starts(with: "HTTP/1.".utf8), let status = number(head[9..<12]) else {
            throw Malformed(description: "the answer does not start with an HTTP/1.x status line")
        }
        var lineStart = (head.firstIndex(of: 10) ?? head.count) + 1
        while lineStart < head.count {
            let lineEnd = head[lineStart...].firstIndex(of: 10) ?? head.count
            let line = head[lineStart..<lineEnd]
            lineStart = lineEnd + 1
            if let value = value(of: "content-length", in: line) {
                guard let count = number(value) else {
                    throw Malformed(description: "the answer's Content-Length is not a number")
                }
                return (length, status, count)
            }
            if value(of: "transfer-encoding", in: line) != nil {
                throw Malformed(description: "the answer is sent in chunks; this client reads Content-Length bodies")
            }
        }
        // No body is allowed without a length only for these.
        guard status == 204 || status == 304 || (100..<200).contains(status) else {
            throw Malformed(description: "the \(status) answer has no Content-Length")
        }
        return (length, status, 0)
    }

    /// The value of `line` (`Name: value\r`, spaces and the carriage return trimmed) when its
    /// name is `name` (lower-case), in any case.
    private static func value(of name: StaticString, in line: Slice<UnsafeRawBufferPointer>) -> Slice<
        UnsafeRawBufferPointer
    >? {
        let count = name.utf8CodeUnitCount
        guard line.count > count, line[line.startIndex + count] == UInt8(ascii: ":") else { return nil }
        for offset in 0..<count where line[line.startIndex + offset] | 0x20 != name.utf8Start[offset] {
            return nil
        }
        var value = line[(line.startIndex + count + 1)...]
        while let first = value.first, first == 32 || first == 9 { value = value.dropFirst() }
        while let last = value.last, last == 32 || last == 9 || last == 13 { value = value.dropLast() }
        return value
    }

    /// The decimal number the bytes spell, nil when they are empty or hold anything else.
    private static func number(_ digits: Slice<UnsafeRawBufferPointer>) -> Int? {
        guard !digits.isEmpty, digits.count <= 18 else { return nil }
        var value = 0
        for byte in digits {
            guard byte >= 48, byte <= 57 else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        return value
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        pending?.fail(error)
        pending = nil
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        pending?.fail(BenchHTTPConnection.Closed())
        pending = nil
        context.fireChannelInactive()
    }
}
