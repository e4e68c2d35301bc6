import Crowd
import Foundation
import HTTPTypes
import Hummingbird
import Metrics
import NIOCore

/// The Crowd's HTTP API (docs/crowd.md, "API"); thin: decode, call the ``CrowdService``, encode.
///
/// - `POST /api/crowd/reports`: a report and its search in one call →
///   `{"location": {"id", "lat", "lon", "people"}, "locations": [...], "truncated"}`.
/// - `GET /api/crowd/locations?lat=&lon=&radius=&min=&max=&limit=`: a search only →
///   `{"locations": [{"id", "lat", "lon", "people", "avg_age", "men", "women", "distance_m"}], "truncated"}`.
/// - `GET /api/crowd/locations/{id}`: the statistics plus `"comments": [{"text", "time"}]`;
///   404 when there is no such location or it is below the minimum group.
/// - `GET /api/crowd/place?lat=&lon=&lang=`: a place name from the reverse geocoder, if one is
///   configured (``CrowdPlaceRoute``).
/// - `GET /api/crowd/openapi.json`: the OpenAPI 3.1 description of all this (also part of
///   `/api/openapi.json`, the document of the whole API).
///
/// With `Accept: application/geo+json` the answers are GeoJSON (a FeatureCollection, or a
/// Feature for one location). Every bad field is a 400 naming it; a body over 16 KiB is a
/// 413; a device or client address over the rate limit gets 429 with `Retry-After`. The
/// device token is turned into a ``DeviceKey`` here and goes no further.
public enum CrowdRoutes {
    /// What the routes need.
    public struct Configuration: Sendable {
        public var backend: CrowdBackend
        public var keys: CrowdDeviceKeys
        public var limiter: CrowdRateLimiter
        /// The server's clock (every call's `now`); tests move it.
        public var clock: @Sendable () -> Date
        /// What the server writes into the crowd page (tiles, their credit, place names on).
        public var page: CrowdPage
        /// The reverse geocoder behind `GET /api/crowd/place`; nil: place names are off.
        public var places: CrowdPlaceNames?

        public init(backend: CrowdBackend, keys: CrowdDeviceKeys, limiter: CrowdRateLimiter,
                    clock: @escaping @Sendable () -> Date = { Date() },
                    page: CrowdPage = CrowdPage(), places: CrowdPlaceNames? = nil) {
            self.backend = backend
            self.keys = keys
            self.limiter = limiter
            self.clock = clock
            self.page = page
            self.places = places
        }
    }

    /// The media type of GeoJSON (RFC 7946).
    public static let geoJSON = "application/geo+json"
    static let plainJSON = "application/json; charset=utf-8"

    /// Adds the routes to `router`.
    public static func add(to router: Router<QuintetRequestContext>, configuration: Configuration) {
        PrometheusMetrics.bootstrap()
        let handlers = Handlers(configuration: configuration, metrics: Metrics())
        router.post("api/crowd/reports") { request, _ in try await handlers.report(request) }
        router.get("api/crowd/locations") { request, _ in try await handlers.search(request) }
        router.get("api/crowd/locations/{id}") { request, context in try await handlers.location(request, context) }
        CrowdPlaceRoute.add(to: router, places: configuration.places)
        // The Crowd's part of /api/openapi.json, on its own (its first URL, kept for its clients).
        router.get("api/crowd/openapi.json") { _, _ in
            Response(status: .ok, headers: [.contentType: plainJSON],
                     body: .init(byteBuffer: ByteBuffer(bytes: CrowdOpenAPI.document)))
        }
    }

    /// The Crowd's Prometheus counters.
    struct Metrics: Sendable {
        let reports = Counter(label: "quintet_crowd_reports_total")
        let searches = Counter(label: "quintet_crowd_searches_total")
        let details = Counter(label: "quintet_crowd_location_views_total")
        let invalid = Counter(label: "quintet_crowd_rejected_total", dimensions: [("reason", "invalid")])
        let tooLarge = Counter(label: "quintet_crowd_rejected_total", dimensions: [("reason", "too_large")])
        let limited = Counter(label: "quintet_crowd_rejected_total", dimensions: [("reason", "rate_limited")])
    }

    /// Whether the client asked for GeoJSON.
    static func wantsGeoJSON(_ request: Request) -> Bool {
        guard let accept = request.headers[.accept] else { return false }
        return accept.lowercased().contains(geoJSON)
    }

    struct Handlers: Sendable {
        let configuration: Configuration
        let metrics: Metrics

        var service: any CrowdService { configuration.backend.service }

        /// Runs `body`, counting and mapping its refusals: a ``CrowdValidationError`` from the
        /// backend becomes the same 400 the routes give.
        private func counting<T>(_ body: () async throws -> T) async throws -> T {
            do {
                return try await body()
            } catch let error as CrowdValidationError {
                metrics.invalid.increment()
                throw CrowdRequests.invalid(error)
            } catch let error as APIError where error.status == .badRequest {
                metrics.invalid.increment()
                throw error
            }
        }

        func report(_ request: Request) async throws -> Response {
            var body = try await Self.collect(request.body, upTo: CrowdRequests.maxBodyBytes)
            if body.readableBytes > CrowdRequests.maxBodyBytes {
                // Refused before the rest is read. An overlong comment or token is a bad field
                // (400 naming it, as for a 201-character comment); anything else is a 413.
                if let field = CrowdRequests.overlongStringField(prefix: body.readableBytesView) {
                    metrics.invalid.increment()
                    throw CrowdRequests.invalid(field, field == "comment" ? "must be 1 to 200 characters" : "must be a string of 1 to 64 characters")
                }
                metrics.tooLarge.increment()
                throw tooLarge()
            }
            let bytes = body.readBytes(length: body.readableBytes) ?? []
            let fields = try await counting { try CrowdRequests.reportFields(json: bytes) }
            let key = configuration.keys.key(for: fields.device)
            let now = configuration.clock()
            if let wait = configuration.limiter.admit(device: key, address: CrowdPeer.address(of: request), now: now) {
                metrics.limited.increment()
                var error = APIError(.tooManyRequests, code: "rate_limited",
                                     message: "too many reports from this device or address: at most \(configuration.limiter.limit) a minute; try again in \(wait) s")
                error.headers = [.retryAfter: String(wait)]
                throw error
            }
            let result = try await counting { try await service.report(fields.report(device: key), now: now) }
            metrics.reports.increment()
            var writer = CrowdJSONWriter(capacity: 128 + 160 * result.search.locations.count)
            if wantsGeoJSON(request) {
                writer.geoReport(result)
                return writer.response(contentType: geoJSON)
            }
            writer.report(result)
            return writer.response(contentType: plainJSON)
        }

        /// Up to `limit + 1` bytes of a body (one more than allowed tells that it is too long).
        static func collect(_ body: RequestBody, upTo limit: Int) async throws -> ByteBuffer {
            var collected = ByteBuffer()
            for try await part in body {
                var part = part
                let room = limit + 1 - collected.readableBytes
                if part.readableBytes >= room {
                    collected.writeBuffer(&part)
                    collected.moveWriterIndex(to: collected.readerIndex + limit + 1)
                    return collected
                }
                collected.writeBuffer(&part)
            }
            return collected
        }

        private func tooLarge() -> APIError {
            var error = APIError(.contentTooLarge, message: "a report body is at most \(CrowdRequests.maxBodyBytes) bytes")
            error.field = "body"
            return error
        }

        func search(_ request: Request) async throws -> Response {
            let search = try await counting { try CrowdRequests.search(query: request.uri.query) }
            let result = try await counting { try await service.search(search, now: configuration.clock()) }
            metrics.searches.increment()
            var writer = CrowdJSONWriter(capacity: 64 + 160 * result.locations.count)
            if wantsGeoJSON(request) {
                writer.geoSearch(result)
                return writer.response(contentType: geoJSON)
            }
            writer.search(result)
            return writer.response(contentType: plainJSON)
        }

        func location(_ request: Request, _ context: QuintetRequestContext) async throws -> Response {
            let id = try await counting { try context.parameters.id() }
            guard let detail = try await service.location(id: id, now: configuration.clock()) else {
                throw APIError(.notFound, message: "no location \(id) now (it emptied, or it has too few people to be shown)")
            }
            metrics.details.increment()
            var writer = CrowdJSONWriter(capacity: 512)
            if wantsGeoJSON(request) {
                writer.geoDetail(detail)
                return writer.response(contentType: geoJSON)
            }
            writer.detail(detail)
            return writer.response(contentType: plainJSON)
        }
    }
}
