import Crowd
import CrowdPostgres
import Foundation
import Logging

extension CrowdBackend {
    /// The PostGIS backend at `url` (``PostgresCrowd``: the semantics as PL/pgSQL functions
    /// over geography with a GiST index). It keeps no device/location counts for the gauges.
    static func postgres(url: String, settings: CrowdSettings, logger: Logger) async throws -> CrowdBackend {
        let postgres = try await PostgresCrowd.connect(url: url, settings: settings, logger: logger)
        return CrowdBackend(service: postgres, kind: "postgres", counts: { nil }, close: { await postgres.close() })
    }
}
