import NIOCore
import NIOHTTPTypes

/// Closes a connection that holds the server without sending a request at a useful pace: a whole
/// request head must arrive within a deadline of the server starting to wait for it (the
/// connection opening, or the previous answer ending), and a body must keep an average rate.
/// Hummingbird's idle timeout alone would let a client trickle a body for ever, and a decoder only
/// hands a head on once it is complete, so a slow head shows here as no head at all.
///
/// Time is counted in ticks of the event loop's own scheduler, never read from a clock, so an
/// `EmbeddedEventLoop` drives it in tests.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// How long a whole head may take.
    let headTimeout: TimeAmount
    /// The slowest average body rate after the first `headTimeout` of the body.
    let minimumBytesPerSecond: Int

    private enum State {
        /// Waiting for a head, with the task that closes the connection when it is late.
        case awaitingHead(Scheduled<Void>?)
        /// Reading a body: bytes so far and whole seconds since its head.
        case receivingBody(bytes: Int, seconds: Int, check: Scheduled<Void>?)
        /// The request is whole: the server is answering it.
        case answering
    }

    private var state = State.answering

    init(headTimeout: TimeAmount, minimumBytesPerSecond: Int) {
        self.headTimeout = headTimeout
        self.minimumBytesPerSecond = minimumBytesPerSecond
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { awaitHead(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) { cancelTimers() }

    func channelActive(context: ChannelHandlerContext) {
        if case .answering = state { awaitHead(context) }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelTimers()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            cancelTimers()
            state = .receivingBody(bytes: 0, seconds: 0, check: scheduleRateCheck(context))
        case .body(let buffer):
            if case .receivingBody(let bytes, let seconds, let check) = state {
                state = .receivingBody(bytes: bytes + buffer.readableBytes, seconds: seconds, check: check)
            }
        case .end:
            cancelTimers()
            state = .answering
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data), case .answering = state { awaitHead(context) }
        context.write(data, promise: promise)
    }

    private func awaitHead(_ context: ChannelHandlerContext) {
        cancelTimers()
        let task = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: headTimeout) {
            context.close(promise: nil)
        }
        state = .awaitingHead(task)
    }

    /// Once a second: after the grace of one head timeout, a body whose average rate is below the
    /// minimum closes the connection.
    private func scheduleRateCheck(_ context: ChannelHandlerContext) -> Scheduled<Void> {
        context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: .seconds(1)) {
            guard case .receivingBody(let bytes, let seconds, _) = self.state else { return }
            let elapsed = seconds + 1
            let grace = Int(self.headTimeout.nanoseconds / 1_000_000_000)
            if elapsed >= grace, bytes < elapsed * self.minimumBytesPerSecond {
                self.state = .answering
                context.close(promise: nil)
                return
            }
            self.state = .receivingBody(bytes: bytes, seconds: elapsed, check: self.scheduleRateCheck(context))
        }
    }

    private func cancelTimers() {
        switch state {
        case .awaitingHead(let task): task?.cancel()
        case .receivingBody(_, _, let check): check?.cancel()
        case .answering: break
        }
        state = .answering
    }
}
