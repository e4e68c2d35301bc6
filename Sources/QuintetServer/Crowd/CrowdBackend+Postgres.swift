import Crowd
import Foundation
import Logging

extension CrowdBackend {
    /// The PostGIS backend at `url`.
    static func postgres(url: String, settings: CrowdSettings, logger: Logger) async throws -> CrowdBackend {
        throw CrowdBackendError(message: "the PostGIS backend is not in this build yet")
    }
}
