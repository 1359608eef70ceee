import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// Makes a request in absolute form (`GET http://host/path HTTP/1.1`) name its target's host in
/// `Host`, as RFC 9112 §3.2.2 says a server must treat it: the conversion to HTTP types keeps only
/// the path and the `Host` header, so without this the host check would judge a header the
/// request's own target contradicts. Sits before the HTTP/1 to HTTP types codec.
final class AbsoluteFormHostHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data), let authority = Self.authority(ofAbsoluteTarget: head.uri)
        else {
            context.fireChannelRead(data)
            return
        }
        head.headers.replaceOrAdd(name: "Host", value: authority)
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    /// The authority of `scheme://authority/…`, or nil for an origin-form target (`/path`).
    static func authority(ofAbsoluteTarget target: String) -> String? {
        guard !target.hasPrefix("/"), let separator = target.range(of: "://") else { return nil }
        let rest = target[separator.upperBound...]
        let end = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        // Userinfo (`user@host`) is not part of the host.
        let authority = rest[..<end]
        return String(authority.split(separator: "@").last ?? authority)
    }
}

/// A server's HTTP/1 connections with ``AbsoluteFormHostHandler`` in front of the codec that
/// turns NIO's HTTP/1 parts into HTTP types.
struct AbsoluteFormHostChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value
    let base: Base

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let codec = try pipeline.handler(type: HTTP1ToHTTPServerCodec.self)
            try pipeline.addHandler(AbsoluteFormHostHandler(), position: .before(codec))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async { await base.handle(value: value, logger: logger) }
}
