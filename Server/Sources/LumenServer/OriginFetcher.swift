import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Sources on HTTP(S) origins, fetched with async-http-client and guarded against being
/// turned on the service's own network (SSRF): only http and https, only allow-listed hosts,
/// and no private, loopback, link-local or otherwise internal address — checked on every
/// address the name resolves to before connecting, and again on the address the
/// connection actually reached (so a name that changes its answer in between is caught
/// too). Redirects are followed here, a few at most, each hop checked the same way. The
/// body is limited in bytes (Content-Length first, then while reading; and it is held from
/// the bodies' share of the memory budget) and the whole fetch in time.
final class OriginFetcher: Sendable {
    let allowedHosts: [String]
    let allowsPrivateAddresses: Bool
    let maxBytes: Int
    let timeout: Double
    let maxRedirects: Int
    let bodies: BodyBudget
    private let client: HTTPClient

    init(_ configuration: ServiceConfiguration, bodies: BodyBudget) {
        self.bodies = bodies
        allowedHosts = configuration.originHosts.map { $0.lowercased() }
        allowsPrivateAddresses = configuration.allowPrivateOrigins
        maxBytes = configuration.maxSourceBytes
        timeout = configuration.originTimeout
        maxRedirects = configuration.maxRedirects
        client = configuration.allowPrivateOrigins ? Self.openClient : Self.guardedClient
    }

    /// Two clients for the process, made on first use and never shut down (as
    /// `HTTPClient.shared`): one that checks the address each connection reached, one that
    /// does not (`allowPrivateOrigins`). Redirects are followed by `fetch`, not the client.
    private static let guardedClient = makeClient(checksAddresses: true)
    private static let openClient = makeClient(checksAddresses: false)

    private static func makeClient(checksAddresses: Bool) -> HTTPClient {
        var settings = HTTPClient.Configuration(redirectConfiguration: .disallow, timeout: .init(connect: .seconds(5)),
                                                decompression: .disabled)
        settings.connectionPool.retryConnectionEstablishment = false
        if checksAddresses {
            settings.http1_1ConnectionDebugInitializer = { channel in
                guard let address = channel.remoteAddress, Self.isInternal(address) else { return channel.eventLoop.makeSucceededVoidFuture() }
                return channel.eventLoop.makeFailedFuture(ServiceError.request(status: 403, message: "the origin connected to an internal address (\(address))"))
            }
            settings.http2ConnectionDebugInitializer = settings.http1_1ConnectionDebugInitializer
        }
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: settings)
    }

    /// Whether a source path is an origin URL (`http://…` or `https://…`).
    static func isOrigin(_ source: String) -> Bool {
        let lower = source.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("http:/") || lower.hasPrefix("https:/")
    }

    /// The body of `source`, the bytes it holds from the bodies' budget, and what identifies
    /// it (the origin's ETag or Last-Modified and its length).
    func fetch(_ source: String) async throws -> (data: Data, hold: BodyBudget.Hold, validator: String) {
        func fail(_ status: Int, _ message: String) -> ServiceError { .request(status: status, message: message) }
        // A proxy or router may have folded the `//` after the scheme.
        var current = source
        for scheme in ["http:/", "https:/"] where current.lowercased().hasPrefix(scheme) && !current.lowercased().hasPrefix(scheme + "/") {
            current = scheme + "/" + current.dropFirst(scheme.count)
        }
        let deadline = NIODeadline.now() + .milliseconds(Int64(timeout * 1000))
        for _ in 0...maxRedirects {
            guard let url = URL(string: current), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
                  let host = url.host?.lowercased(), !host.isEmpty else {
                throw fail(400, "the source is not an http or https URL: \(current)")
            }
            guard isAllowed(host) else { throw fail(403, "the origin host \(host) is not allowed") }
            if !allowsPrivateAddresses {
                let addresses = try Self.resolve(host)
                guard !addresses.isEmpty else { throw fail(502, "the origin host \(host) does not resolve") }
                if let inside = addresses.first(where: Self.isInternal) {
                    throw fail(403, "the origin host \(host) resolves to an internal address (\(inside))")
                }
            }
            var request = HTTPClientRequest(url: current)
            request.headers.add(name: "User-Agent", value: "lumen-serve")
            let response: HTTPClientResponse
            do {
                response = try await client.execute(request, deadline: deadline)
            } catch {
                throw Self.map(error, host: host)
            }
            if response.status.code != 200 {
                // Read what little the origin sent (an error page), so the connection is free again.
                _ = try? await response.body.collect(upTo: 1 << 16)
            }
            switch response.status.code {
            case 200:
                let limit = min(maxBytes, bodies.capacity)
                let announced = response.headers.first(name: "content-length").flatMap(Int.init)
                if let announced, announced > limit {
                    throw fail(422, "the source is \(announced) bytes; at most \(limit)")
                }
                let body: (data: Data, hold: BodyBudget.Hold)
                do {
                    body = try await bodies.collect(response.body, announced: announced, limit: limit) { fail(422, "the source is larger than \($0) bytes") }
                } catch let error as BodyBudget.Full {
                    throw error
                } catch {
                    throw Self.map(error, host: host)
                }
                let tag = response.headers.first(name: "etag") ?? response.headers.first(name: "last-modified") ?? ""
                return (body.data, body.hold, tag.isEmpty ? "" : "\(tag)-\(body.data.count)")
            case 301, 302, 303, 307, 308:
                guard let location = response.headers.first(name: "location"), let next = URL(string: location, relativeTo: url)?.absoluteURL else {
                    throw fail(502, "the origin redirected without a Location")
                }
                current = next.absoluteString
            case 404, 410:
                throw fail(404, "the origin has no such image (\(response.status.code))")
            default:
                throw fail(502, "the origin answered \(response.status.code)")
            }
        }
        throw fail(502, "the origin redirected more than \(maxRedirects) times")
    }

    private func isAllowed(_ host: String) -> Bool {
        allowedHosts.contains { pattern in
            pattern == "*" || pattern == host || (pattern.hasPrefix("*.") && host.hasSuffix(pattern.dropFirst()))
        }
    }

    static func map(_ error: Error, host: String) -> Error {
        if let error = error as? ServiceError { return error }
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout:
                return ServiceError.request(status: 504, message: "the origin \(host) did not answer in time")
            default: break
            }
        }
        return ServiceError.request(status: 502, message: "the origin \(host) could not be reached (\(error))")
    }

    /// Every address `host` resolves to.
    static func resolve(_ host: String) throws -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(list) }
        var out: [SocketAddress] = []
        var node: UnsafeMutablePointer<addrinfo>? = first
        while let entry = node {
            if let address = entry.pointee.ai_addr {
                switch Int32(address.pointee.sa_family) {
                case AF_INET:
                    address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { out.append(SocketAddress($0.pointee, host: host)) }
                case AF_INET6:
                    address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { out.append(SocketAddress($0.pointee, host: host)) }
                default: break
                }
            }
            node = entry.pointee.ai_next
        }
        return out
    }

    /// Loopback, private, link-local, carrier-grade NAT, benchmarking, multicast, reserved
    /// and unspecified addresses, in IPv4 and IPv6 (IPv4-mapped included).
    static func isInternal(_ address: SocketAddress) -> Bool {
        switch address {
        case let .v4(v4):
            return isInternalIPv4(UInt32(bigEndian: v4.address.sin_addr.s_addr))
        case let .v6(v6):
            var bytes = [UInt8](repeating: 0, count: 16)
            withUnsafeBytes(of: v6.address.sin6_addr) { raw in for i in 0..<16 { bytes[i] = raw[i] } }
            if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff {  // ::ffff:a.b.c.d
                return isInternalIPv4(UInt32(bytes[12]) << 24 | UInt32(bytes[13]) << 16 | UInt32(bytes[14]) << 8 | UInt32(bytes[15]))
            }
            if bytes.allSatisfy({ $0 == 0 }) || (bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1) { return true }  // :: and ::1
            return bytes[0] & 0xfe == 0xfc || (bytes[0] == 0xfe && bytes[1] & 0xc0 == 0x80) || bytes[0] == 0xff  // fc00::/7, fe80::/10, ff00::/8
        case .unixDomainSocket:
            return true
        }
    }

    static func isInternalIPv4(_ a: UInt32) -> Bool {
        func within(_ base: UInt32, _ bits: UInt32) -> Bool { a >> (32 - bits) == base >> (32 - bits) }
        return within(0x0000_0000, 8) || within(0x0A00_0000, 8) || within(0x6440_0000, 10) || within(0x7F00_0000, 8)
            || within(0xA9FE_0000, 16) || within(0xAC10_0000, 12) || within(0xC000_0000, 24) || within(0xC0A8_0000, 16)
            || within(0xC612_0000, 15) || within(0xE000_0000, 4) || within(0xF000_0000, 4)
    }
}
