import Foundation
import HTTPTypes
import Hummingbird

/// `GET /api/crowd/place?lat=&lon=[&lang=]`: a short place name for a point, from the reverse
/// geocoder `serve --crowd-geocoder` names (``CrowdPlaceNames``) →
/// `{"name": "Brera, Milano", "source": "nominatim.example.org", "licence": "…" | null}`.
///
/// - 404 `geocoder_off`: no geocoder is configured (the default);
/// - 404 `no_place`: the geocoder knows no place there;
/// - 503 `geocoder_busy` with `Retry-After`: the one-request-a-second budget is taken;
/// - 503 `geocoder_unavailable`: the geocoder did not answer usefully;
/// - 400 naming `lat`, `lon` or `lang` for a bad field.
///
/// The request carries no device token, and nothing of it but the rounded coordinates and the
/// language goes on to the geocoder.
enum CrowdPlaceRoute {
    static func add(to router: Router<QuintetRequestContext>, places: CrowdPlaceNames?) {
        router.get("api/crowd/place") { request, _ in try await answer(request, places: places) }
    }

    static func answer(_ request: Request, places: CrowdPlaceNames?) async throws -> Response {
        let fields = FormFields(request.uri.query)
        let lat = try CrowdRequests.queryNumber(fields, "lat", "must be a number in [-90, 90]")
        guard (-90...90).contains(lat) else { throw CrowdRequests.invalid("lat", "must be a number in [-90, 90]") }
        let lon = try CrowdRequests.queryNumber(fields, "lon", "must be a number in [-180, 180]")
        guard (-180...180).contains(lon) else { throw CrowdRequests.invalid("lon", "must be a number in [-180, 180]") }
        var language: String?
        if let text = fields.get("lang") {
            guard (2...3).contains(text.utf8.count), text.utf8.allSatisfy({ $0 >= 97 && $0 <= 122 }) else {
                throw CrowdRequests.invalid("lang", "must be a language code of 2 or 3 lowercase letters (en, it)")
            }
            language = text
        }
        guard let places else {
            throw APIError(.notFound, code: "geocoder_off",
                           message: "place names are off on this server (start it with --crowd-geocoder URL to turn them on)")
        }
        switch await places.lookup(lat: lat, lon: lon, language: language) {
        case .found(let place):
            struct Body: Encodable { let name: String; let source: String; let licence: String? }
            return try APIJSON.response(Body(name: place.name, source: place.source, licence: place.licence))
        case .nothing:
            throw APIError(.notFound, code: "no_place", message: "the geocoder knows no place name here")
        case .busy(let wait):
            let seconds = max(1, Int((Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18).rounded(.up)))
            var error = APIError(.serviceUnavailable, code: "geocoder_busy",
                                 message: "place names are asked at most once a second and others are waiting: try again in \(seconds) s")
            error.headers = [.retryAfter: String(seconds)]
            throw error
        case .unavailable(let reason):
            throw APIError(.serviceUnavailable, code: "geocoder_unavailable", message: "no place name now: \(reason)")
        }
    }
}
