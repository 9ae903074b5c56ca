import HTTPTypes
import Hummingbird
import NIOHTTPTypes
import NIOCore

/// A request context that knows the connection its request came on. `ImageService` stops a
/// render once every client waiting for it has closed its connection; with a context that
/// does not conform, renders run to the end (or their deadline) whoever is listening.
public protocol ConnectionAwareRequestContext: RequestContext {
    /// The connection the request arrived on.
    var connection: any Channel { get }
}

/// The context `lumen-serve` uses: Hummingbird's basic context plus the connection. An app
/// mounting `ImageService` can use it (`Router(context: LumenRequestContext.self)`) or give
/// its own context the same conformance.
public struct LumenRequestContext: ConnectionAwareRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let connection: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        connection = source.channel
    }
}

/// Closes a connection once its client has closed its sending side (a FIN). Hummingbird
/// keeps half-closed connections open, so without this a client that closed politely
/// mid-render would look like one still waiting, and its render would run on. Clients that
/// half-close on purpose and still expect the answer lose it, as with Go's net/http and
/// nginx. Add it to the HTTP/1 channel beside `HeaderLimitHandler`.
public final class ClientCloseHandler: ChannelInboundHandler, RemovableChannelHandler {
    /// Request parts pass through untouched.
    public typealias InboundIn = HTTPRequestPart
    /// Request parts pass through untouched.
    public typealias InboundOut = HTTPRequestPart

    /// A handler for one connection.
    public init() {}

    /// Passes each request part on.
    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
    }

    /// Closes the connection when its input closes; passes other events on.
    public func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            context.close(promise: nil)
        }
        context.fireUserInboundEventTriggered(event)
    }
}

/// Closes a connection whose answer ended before its request's body had arrived: a refusal
/// (413, 408, 503 for the bodies' share, 403, 400, 404…) sent without reading the body. Such
/// an answer says `Connection: close`; once it is sent the sending side is shut (a FIN, so
/// the client reads the answer whole instead of a reset) and the connection is closed
/// outright 2 s later. Without it Hummingbird would read and discard the rest of that body
/// with no deadline, for as long as the client cares to drip it. Add it to the HTTP/1
/// channel beside `HeaderLimitHandler` and `ClientCloseHandler`.
public final class ResponseCloseHandler: ChannelDuplexHandler, RemovableChannelHandler {
    /// Request parts pass through untouched.
    public typealias InboundIn = HTTPRequestPart
    /// Request parts pass through untouched.
    public typealias InboundOut = HTTPRequestPart
    /// Response parts pass through; the head of one sent early gains `Connection: close`.
    public typealias OutboundIn = HTTPResponsePart
    /// Response parts pass through; the head of one sent early gains `Connection: close`.
    public typealias OutboundOut = HTTPResponsePart

    private var requestsEnded = 0, responsesStarted = 0
    private var closing = false

    /// A handler for one connection.
    public init() {}

    /// Counts requests received whole, and passes each part on.
    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data) { requestsEnded += 1 }
        context.fireChannelRead(data)
    }

    /// Marks an answer whose request is still arriving, and closes once it is sent.
    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case var .head(head) where head.status.code >= 200:  // not a 100 Continue
            responsesStarted += 1
            closing = requestsEnded < responsesStarted
            if closing {
                head.headerFields[.connection] = "close"
                return context.write(wrapOutboundOut(.head(head)), promise: promise)
            }
        case .end where closing:
            closing = false
            let channel = context.channel
            let sent = promise ?? context.eventLoop.makePromise()
            sent.futureResult.whenComplete { _ in
                channel.close(mode: .output, promise: nil)
                channel.eventLoop.scheduleTask(in: .seconds(2)) { channel.close(promise: nil) }
            }
            return context.writeAndFlush(data, promise: sent)
        default:
            break
        }
        context.write(data, promise: promise)
    }
}
