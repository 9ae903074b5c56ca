import Hummingbird
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
