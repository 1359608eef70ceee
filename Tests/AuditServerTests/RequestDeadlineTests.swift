import HTTPTypes
import HummingbirdTesting
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing

@testable import AuditServer

/// Slow clients cannot hold a connection: the head's deadline and the body's minimum rate, on an
/// embedded event loop whose time the test advances.
@Suite("Request deadlines")
struct RequestDeadlineTests {
    static func channel() throws -> (EmbeddedChannel, EmbeddedEventLoop) {
        let loop = EmbeddedEventLoop()
        let channel = EmbeddedChannel(
            handler: RequestDeadlineHandler(headTimeout: .seconds(10), minimumBytesPerSecond: 1000), loop: loop)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return (channel, loop)
    }

    static let head = HTTPRequestPart.head(HTTPRequest(method: .put, scheme: "http", authority: "localhost", path: "/x"))

    @Test("a connection that sends no head is closed at the deadline, not before")
    func noHead() throws {
        let (channel, loop) = try Self.channel()
        loop.advanceTime(by: .seconds(9))
        #expect(channel.isActive)
        loop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive)
    }

    @Test("a head in time stops the deadline; after the answer the next head has a deadline again")
    func headInTime() throws {
        let (channel, loop) = try Self.channel()
        loop.advanceTime(by: .seconds(5))
        try channel.writeInbound(Self.head)
        try channel.writeInbound(HTTPRequestPart.end(nil))
        loop.advanceTime(by: .seconds(60))
        #expect(channel.isActive, "the server may take its time answering")
        try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        loop.advanceTime(by: .seconds(9))
        #expect(channel.isActive)
        loop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive, "an idle keep-alive connection waits no longer than a head may take")
    }

    @Test("a body trickled below the minimum rate is cut off after the grace; a steady one is not")
    func bodyRate() throws {
        let (slow, slowLoop) = try Self.channel()
        try slow.writeInbound(Self.head)
        for _ in 0..<30 {
            try slow.writeInbound(HTTPRequestPart.body(ByteBuffer(repeating: 0, count: 100)))
            slowLoop.advanceTime(by: .seconds(1))
        }
        #expect(!slow.isActive)

        let (steady, steadyLoop) = try Self.channel()
        try steady.writeInbound(Self.head)
        for _ in 0..<30 {
            try steady.writeInbound(HTTPRequestPart.body(ByteBuffer(repeating: 0, count: 2000)))
            steadyLoop.advanceTime(by: .seconds(1))
        }
        #expect(steady.isActive)
        try steady.writeInbound(HTTPRequestPart.end(nil))
        steadyLoop.advanceTime(by: .seconds(60))
        #expect(steady.isActive)
    }

    @Test("over a real socket: a connection that sends nothing, half a head, or no next head after an answer is closed")
    func liveServer() async throws {
        let fixture = try await ServerFixture { clock in
            var configuration = ServerConfiguration(clock: clock)
            configuration.requestHeadTimeout = .seconds(1)
            return configuration
        }
        try await fixture.application().test(.live) { client in
            let port = try #require(client.port)
            #expect(try await RawHTTP.closedByServer(port: port, sending: []))
            #expect(try await RawHTTP.closedByServer(port: port, sending: Array("GET /health HTTP/1.1\r\nHo".utf8)))
            // A kept-alive connection waits for its next head from the end of the answer: a client
            // that pauses longer between two requests finds the connection closed.
            let whole = Array("GET /health HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8)
            #expect(try await RawHTTP.closedByServer(port: port, sending: whole))
        }
    }
}
