import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOPosix

extension Routes {
    struct Health: Encodable {
        var status: String
        var position: UInt64
    }

    /// Liveness: the service answers and where its log ends.
    func health() async throws -> Response {
        try json(Health(status: "ok", position: await service.appliedPosition))
    }

    /// The OpenAPI document the routes are tested against.
    func openAPI() -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/yaml"
        return Response(
            status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: OpenAPIDocument.yaml)))
    }

    /// Prometheus text format: requests and latency by route, appends, and at each scrape the
    /// log's last position and the projection lag (positions the read models have not folded).
    func metrics() async -> Response {
        server.metrics.makeGauge(descriptor: MetricNames.logPosition, labels: []).set(Double(service.lastPosition))
        // Group commit: bundles per durable write is how well concurrent devices share fsyncs.
        let groups = await service.groupStatistics
        server.metrics.makeGauge(descriptor: MetricNames.groupWrites, labels: []).set(Double(groups.writes))
        server.metrics.makeGauge(descriptor: MetricNames.groupBundles, labels: []).set(Double(groups.bundles))
        server.metrics.makeGauge(descriptor: MetricNames.groupLargestBundles, labels: []).set(
            Double(groups.largestGroup))
        let queries = service.queries
        // An unreadable projection database leaves the gauge out rather than failing the scrape.
        if let lag = try? await NIOThreadPool.singleton.runIfActive({ try queries.projectionLag() }) {
            server.metrics.makeGauge(descriptor: MetricNames.projectionLag, labels: []).set(Double(lag))
        }
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; version=0.0.4"
        var bytes: [UInt8] = []
        server.metrics.emit(into: &bytes)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
