import Foundation
import Hummingbird
import Metrics
import Prometheus

/// The process-wide Prometheus registry behind `/metrics`.
///
/// swift-metrics can be bootstrapped once per process, so the first application built
/// installs the factory and later ones (tests build many) reuse it.
public enum PrometheusMetrics {
    /// The registry every swift-metrics counter, timer and meter of the process reports to.
    public static let registry: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.nameAndLabelSanitizer = { name, labels in
            (sanitize(name), labels.map { (sanitize($0.0), $0.1) })
        }
        MetricsSystem.bootstrap(factory)
        return registry
    }()

    /// Prometheus names match `[a-zA-Z_:][a-zA-Z0-9_:]*`; swift-metrics labels use dots.
    static func sanitize(_ name: String) -> String {
        var out = String(name.unicodeScalars.map { scalar -> Character in
            let ok = (scalar.value < 128) && (CharacterSet.alphanumerics.contains(scalar) || scalar == "_" || scalar == ":")
            return ok ? Character(scalar) : "_"
        })
        if let first = out.first, first.isNumber { out = "_" + out }
        return out
    }

    /// Installs the factory if it is not yet installed.
    public static func bootstrap() { _ = registry }

    /// The text exposition format (version 0.0.4) of every metric.
    public static func exposition() -> String { registry.emitToString() }
}
