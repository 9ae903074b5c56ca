import Foundation
import Prometheus

/// The service's figures, in Prometheus's text format on `/metrics`.
final class ServiceMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let requestDuration: DurationHistogram
    private let renderDuration: DurationHistogram
    let queued: Gauge
    let rendering: Gauge
    private let cacheHits: Counter
    private let cacheMisses: Counter
    private let bytesSent: Counter
    let renderCacheBytes: Gauge
    let outputCacheBytes: Gauge
    let bodyBytes: Gauge
    let residentBytes: Gauge

    init() {
        let buckets: [Duration] = [.milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
                                   .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10)]
        requestDuration = registry.makeDurationHistogram(
            descriptor: .init(namespace: "lumen", metricName: "request_duration", unitName: "seconds", helpText: "Time from request to response."),
            buckets: buckets)
        renderDuration = registry.makeDurationHistogram(
            descriptor: .init(namespace: "lumen", metricName: "render_duration", unitName: "seconds", helpText: "Time spent decoding, rendering and encoding."),
            buckets: buckets)
        queued = registry.makeGauge(descriptor: .init(namespace: "lumen", metricName: "render_queue_length", unitName: "",
                                                      helpText: "Requests waiting for a render slot."))
        rendering = registry.makeGauge(descriptor: .init(namespace: "lumen", metricName: "renders_in_flight", unitName: "",
                                                         helpText: "Renders running."))
        cacheHits = registry.makeCounter(descriptor: .init(namespace: "lumen", metricName: "output_cache_hits", unitName: "total",
                                                           helpText: "Responses served from the output cache."))
        cacheMisses = registry.makeCounter(descriptor: .init(namespace: "lumen", metricName: "output_cache_misses", unitName: "total",
                                                             helpText: "Responses rendered because the output cache did not have them."))
        renderCacheBytes = registry.makeGauge(descriptor: .init(namespace: "lumen", metricName: "render_cache", unitName: "bytes",
                                                                helpText: "Decoded sources and intermediates kept by the render cache."))
        outputCacheBytes = registry.makeGauge(descriptor: .init(namespace: "lumen", metricName: "output_cache", unitName: "bytes",
                                                                helpText: "Encoded outputs kept."))
        bodyBytes = registry.makeGauge(descriptor: .init(namespace: "lumen", metricName: "bodies_held", unitName: "bytes",
                                                         helpText: "Uploads and origins' answers held in memory until their render is done."))
        residentBytes = registry.makeGauge(descriptor: .init(namespace: "lumen", metricName: "resident_memory", unitName: "bytes",
                                                             helpText: "The process's resident memory (RSS)."))
        bytesSent = registry.makeCounter(descriptor: .init(namespace: "lumen", metricName: "response_bytes", unitName: "total",
                                                           helpText: "Bytes of image bodies sent."))
    }

    func request(status: Int, seconds: Double) {
        registry.makeCounter(descriptor: .init(namespace: "lumen", metricName: "requests", unitName: "total", helpText: "Requests by status."),
                             labels: [("status", String(status))]).increment()
        requestDuration.record(.nanoseconds(Int64(seconds * 1e9)))
    }

    func render(seconds: Double) { renderDuration.record(.nanoseconds(Int64(seconds * 1e9))) }
    func cache(hit: Bool) { (hit ? cacheHits : cacheMisses).increment() }
    func sent(bytes: Int) { bytesSent.increment(by: Int64(bytes)) }

    func text() -> [UInt8] {
        var out: [UInt8] = []
        registry.emit(into: &out)
        return out
    }
}
