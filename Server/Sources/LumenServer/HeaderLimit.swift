import HTTPTypes
import HummingbirdCore
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Answers a request whose headers overflow the decoder's limits (Hummingbird's default:
/// 80 KB) with 431 Request Header Fields Too Large and closes the connection (without it
/// Hummingbird answers 400 Bad Request, which says nothing of why). Add it to the HTTP/1 channel:
/// `.http1(configuration: .init(additionalChannelHandlers: [HeaderLimitHandler()]))`.
public final class HeaderLimitHandler: ChannelInboundHandler, RemovableChannelHandler {
    /// Request parts pass through untouched.
    public typealias InboundIn = HTTPRequestPart
    /// Request parts pass through untouched.
    public typealias InboundOut = HTTPRequestPart
    /// The 431 response it writes.
    public typealias OutboundOut = HTTPResponsePart

    /// A handler for one connection.
    public init() {}

    /// Passes each request part on.
    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
    }

    /// Answers a header overflow with 431 and closes; passes other errors on.
    public func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parse = error as? HTTPParserError, parse == .headerOverflow else {
            return context.fireErrorCaught(error)
        }
        var head = HTTPResponse(status: .init(code: 431, reasonPhrase: "Request Header Fields Too Large"))
        head.headerFields[.connection] = "close"
        head.headerFields[.contentLength] = "0"
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}
