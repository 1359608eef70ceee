import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

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

    /// Prometheus text format: requests and latency by route, appends, projection lag.
    func metrics() -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; version=0.0.4"
        var bytes: [UInt8] = []
        server.metrics.emit(into: &bytes)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
