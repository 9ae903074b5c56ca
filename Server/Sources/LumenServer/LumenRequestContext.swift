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

/// Closes the connection once a response marked `Connection: close` is sent. The service
/// marks refusals that leave an upload's body unread (413, 408, 503 for the bodies' share):
/// without this, Hummingbird would go on reading and discarding the rest of that body, with
/// no deadline, for as long as the client cares to drip it. Add it to the HTTP/1 channel
/// beside `HeaderLimitHandler` and `ClientCloseHandler`.
public final class ResponseCloseHandler: ChannelOutboundHandler, RemovableChannelHandler {
    /// Response parts pass through untouched.
    public typealias OutboundIn = HTTPResponsePart
    /// Response parts pass through untouched.
    public typealias OutboundOut = HTTPResponsePart

    private var closing = false

    /// A handler for one connection.
    public init() {}

    /// Passes each response part on; after the end of one marked `Connection: close`, closes.
    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case let .head(head):
            closing = head.headerFields[.connection]?.lowercased() == "close"
        case .end where closing:
            closing = false
            let channel = context.channel
            let sent = promise ?? context.eventLoop.makePromise()
            sent.futureResult.whenComplete { _ in channel.close(promise: nil) }
            context.writeAndFlush(data, promise: sent)
            return
        default:
            break
        }
        context.write(data, promise: promise)
    }
}
