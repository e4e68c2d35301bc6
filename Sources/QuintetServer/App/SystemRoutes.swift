import Foundation
import Hummingbird
import QuintetStore

/// Routes that belong to no single system: health, metrics, version.
enum SystemRoutes {
    struct Health: ResponseEncodable {
        let status: String
        let version: String
        let database: String
    }

    struct Version: ResponseEncodable {
        let name: String
        let version: String
        let systems: [String]
    }

    static func add(to router: Router<QuintetRequestContext>, database: QuintetDatabase) {
        router.get("healthz") { _, _ -> Response in
            do {
                _ = try await database.pool.read { db in try Int.fetchOne(db, sql: "SELECT 1") } // GRDB's async read
                return try APIJSON.response(Health(status: "ok", version: QuintetVersion.current, database: "ok"), status: .ok)
            } catch {
                return try APIJSON.response(Health(status: "unavailable", version: QuintetVersion.current,
                                               database: String(describing: error)), status: .serviceUnavailable)
            }
        }
        router.get("metrics") { _, _ -> Response in
            Response(status: .ok,
                     headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                     body: .init(byteBuffer: ByteBuffer(string: PrometheusMetrics.exposition())))
        }
        router.get("api/version") { _, _ in
            Version(name: "Quintet", version: QuintetVersion.current,
                    systems: ["library", "runner", "radio", "crowd", "playground"])
        }
    }
}
