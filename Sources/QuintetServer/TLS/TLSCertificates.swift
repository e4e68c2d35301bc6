import Crypto
import Foundation
import NIOConcurrencyHelpers
import NIOSSL
import X509

/// Where the server's certificate comes from (`quintet serve --tls-cert/--tls-key` or
/// `--tls-self-signed`).
public enum TLSSource: Sendable, Equatable {
    /// A PEM certificate (its chain may follow it in the same file) and its PEM private key.
    case files(certificate: URL, key: URL)
    /// A private certificate authority and a server certificate made by Quintet in the data
    /// folder (``LocalCertificateAuthority``).
    case selfSigned
}

/// A refused certificate or key: names the file and what is wrong with it.
public struct TLSSetupError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// The certificate and key the server presents, checked, with the TLS context made from them;
/// ``reload()`` reads the files again (SIGHUP), and a connection accepted afterwards gets the
/// new context while open connections keep theirs.
public final class ServerTLS: Sendable {
    /// What a reload read: the leaf certificate and the context.
    struct Loaded: Sendable {
        let leaf: Certificate
        let context: NIOSSLContext
    }

    let certificateFile: URL
    let keyFile: URL
    private let loaded: NIOLockedValueBox<Loaded>

    /// Reads and checks `certificateFile` and `keyFile`; throws ``TLSSetupError`` naming the
    /// file and the problem (missing, unreadable, not PEM, expired, key not matching).
    public init(certificateFile: URL, keyFile: URL) throws {
        self.certificateFile = certificateFile
        self.keyFile = keyFile
        loaded = NIOLockedValueBox(try Self.load(certificateFile: certificateFile, keyFile: keyFile))
    }

    /// The context for a new connection.
    var context: NIOSSLContext { loaded.withLockedValue { $0.context } }

    /// The certificate presented now.
    public var certificate: Certificate { loaded.withLockedValue { $0.leaf } }

    /// Reads the files again and uses them for new connections; on error the old ones stay.
    public func reload() throws {
        let fresh = try Self.load(certificateFile: certificateFile, keyFile: keyFile)
        loaded.withLockedValue { $0 = fresh }
    }

    /// The SHA-256 of the presented certificate's DER form, as `AA:BB:…`.
    public var fingerprint: String { Self.fingerprint(of: certificate) }

    static func fingerprint(of certificate: Certificate) -> String {
        let der = (try? certificate.serializeAsPEM().derBytes) ?? []
        return SHA256.hash(data: der).map { String(format: "%02X", $0) }.joined(separator: ":")
    }

    static func load(certificateFile: URL, keyFile: URL) throws -> Loaded {
        let certificateText = try readText(certificateFile, flag: "--tls-cert")
        let keyText = try readText(keyFile, flag: "--tls-key")
        let blocks = pemBlocks(certificateText, label: "CERTIFICATE")
        guard !blocks.isEmpty else {
            throw TLSSetupError("--tls-cert \(certificateFile.path): no PEM certificate in the file (expected -----BEGIN CERTIFICATE-----)")
        }
        let chain: [Certificate]
        do { chain = try blocks.map { try Certificate(pemEncoded: $0) } } catch {
            throw TLSSetupError("--tls-cert \(certificateFile.path): a certificate in the file cannot be read (\(error))")
        }
        let leaf = chain[0]
        let now = Date()
        if leaf.notValidAfter < now {
            throw TLSSetupError("--tls-cert \(certificateFile.path): the certificate expired on \(leaf.notValidAfter) (renew it, then start again or send SIGHUP)")
        }
        if leaf.notValidBefore > now {
            throw TLSSetupError("--tls-cert \(certificateFile.path): the certificate is valid only from \(leaf.notValidBefore)")
        }
        let key: Certificate.PrivateKey
        do { key = try Certificate.PrivateKey(pemEncoded: keyText) } catch {
            throw TLSSetupError("--tls-key \(keyFile.path): not a PEM private key Quintet can use (EC P-256/384/521, RSA or Ed25519; \(error))")
        }
        guard key.publicKey == leaf.publicKey else {
            throw TLSSetupError("--tls-key \(keyFile.path) does not belong to the certificate in --tls-cert \(certificateFile.path)")
        }
        do {
            let certificates = try blocks.map { try NIOSSLCertificate(bytes: Array($0.utf8), format: .pem) }
            let sslKey = try NIOSSLPrivateKey(bytes: Array(keyText.utf8), format: .pem)
            var configuration = TLSConfiguration.makeServerConfiguration(
                certificateChain: certificates.map { .certificate($0) }, privateKey: .privateKey(sslKey))
            // TLS 1.2 and 1.3 only: browsers dropped 1.0 and 1.1 in 2020, and so do we.
            configuration.minimumTLSVersion = .tlsv12
            configuration.applicationProtocols = ["http/1.1"]
            return Loaded(leaf: leaf, context: try NIOSSLContext(configuration: configuration))
        } catch {
            throw TLSSetupError("--tls-cert \(certificateFile.path) / --tls-key \(keyFile.path): the TLS library refused them (\(error))")
        }
    }

    static func readText(_ url: URL, flag: String) throws -> String {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw TLSSetupError("\(flag) \(url.path): cannot read the file (\((error as NSError).localizedDescription))")
        }
        guard data.count <= 1 << 20 else { throw TLSSetupError("\(flag) \(url.path): larger than 1 MiB, not a PEM file") }
        return String(decoding: data, as: UTF8.self)
    }

    /// Each `-----BEGIN label-----` … `-----END label-----` block of `text`, whole.
    static func pemBlocks(_ text: String, label: String) -> [String] {
        let begin = "-----BEGIN \(label)-----", end = "-----END \(label)-----"
        var blocks: [String] = []
        var rest = text[...]
        while let start = rest.range(of: begin), let stop = rest.range(of: end, range: start.upperBound..<rest.endIndex) {
            blocks.append(String(rest[start.lowerBound..<stop.upperBound]))
            rest = rest[stop.upperBound...]
        }
        return blocks
    }
}
