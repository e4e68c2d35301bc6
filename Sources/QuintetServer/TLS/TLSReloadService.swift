import Logging
import ServiceLifecycle
import UnixSignals

/// Re-reads the server's certificate and key on SIGHUP (a renewal needs no restart). With
/// `--tls-self-signed` the server certificate is first made again if the machine's names or
/// addresses changed. A bad file is logged and the certificate in use stays.
struct TLSReloadService: Service {
    let tls: ServerTLS
    let authority: LocalCertificateAuthority?
    let logger: Logger

    func run() async {
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            do {
                try authority?.prepare()
                try tls.reload()
                logger.notice("SIGHUP: certificate re-read", metadata: [
                    "file": "\(tls.certificateFile.path)", "sha256": "\(tls.fingerprint)",
                    "valid_until": "\(tls.certificate.notValidAfter)",
                ])
            } catch {
                logger.error("SIGHUP: the certificate was not changed: \(error)")
            }
        }
    }
}
