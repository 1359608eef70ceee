import NIOCore
import NIOHTTP1
import NIOPosix

/// One simulated client's keep-alive HTTP/1.1 connection to the server under test: a request at
/// a time, on NIO's own encoder and decoder.
///
/// async-http-client's pool, request state machines and streaming bodies cost this machine's
/// client side about as much CPU as the server spent answering (1.0 core against 0.9 in the read
/// phase), and the two share the cores: the server was measured with half a machine. This client
/// keeps only what a device needs: one connection, opened on first use, a whole response per
/// request.
final class BenchHTTPConnection: @unchecked Sendable {
    // @unchecked: `channel` is set once by the one task that uses the connection; the collector
    // lives on the channel's event loop.
    private let host: String
    private let port: Int
    /// The event loop the connection lives on; a task that uses it should prefer ``executor``.
    let eventLoop: any EventLoop
    /// Runs the using task on ``eventLoop`` (pass it as the task's executor preference).
    let executor: EventLoopTaskExecutor
    private var channel: (any Channel)?
    private var collector: ResponseCollector?

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
        let (channel, collector) = try await connected()
        var head = HTTPRequestHead(version: .http1_1, method: method, uri: uri)
        head.headers.add(name: "Host", value: host)
        for (name, value) in headers { head.headers.add(name: name, value: value) }
        if !body.isEmpty || method == .POST || method == .PUT {
            head.headers.add(name: "Content-Length", value: String(body.count))
        }
        let request = head
        let promise = channel.eventLoop.makePromise(of: (status: Int, body: ByteBuffer).self)
        let payload = body.isEmpty ? nil : channel.allocator.buffer(bytes: body)
        channel.eventLoop.execute {
            collector.expect(promise)
            channel.write(HTTPClientRequestPart.head(request), promise: nil)
            if let payload { channel.write(HTTPClientRequestPart.body(.byteBuffer(payload)), promise: nil) }
            channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
        }
        return try await promise.futureResult.get()
    }

    /// Closes the connection (a later ``send`` opens another).
    func close() async {
        guard let channel else { return }
        self.channel = nil
        collector = nil
        try? await channel.close()
    }

    private func connected() async throws -> (any Channel, ResponseCollector) {
        if let channel, let collector, channel.isActive { return (channel, collector) }
        let collector = ResponseCollector()
        let channel = try await ClientBootstrap(group: eventLoop)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                // No outbound header validator: the headers are this client's own, and every
                // request would pay to check them on the cores the server under test needs.
                channel.pipeline.addHTTPClientHandlers(enableOutboundHeaderValidation: false).flatMap {
                    channel.pipeline.addHandler(collector)
                }
            }
            .connect(host: host, port: port).get()
        self.channel = channel
        self.collector = collector
        return (channel, collector)
    }
}

/// Gathers one response (head, body parts, end) and completes the request's promise with it.
private final class ResponseCollector: ChannelInboundHandler, @unchecked Sendable {
    // @unchecked: every property is touched on the channel's event loop only.
    typealias InboundIn = HTTPClientResponsePart

    private var pending: EventLoopPromise<(status: Int, body: ByteBuffer)>?
    private var status = 0
    private var body = ByteBuffer()

    func expect(_ promise: EventLoopPromise<(status: Int, body: ByteBuffer)>) {
        pending = promise
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            status = Int(head.status.code)
            body.clear()
        case .body(var part):
            body.writeBuffer(&part)
        case .end:
            let promise = pending
            pending = nil
            promise?.succeed((status, body))
            body = context.channel.allocator.buffer(capacity: 0)
        }
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
