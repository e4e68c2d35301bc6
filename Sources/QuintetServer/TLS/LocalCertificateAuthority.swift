import Crypto
import Foundation
import NIOCore
import SwiftASN1
import X509
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `quintet serve --tls-self-signed`: a private certificate authority made once in the data
/// folder (`tls/ca.pem`, `tls/ca-key.pem`, ten years) and a server certificate it signs
/// (`tls/server.pem` with the CA after it, `tls/server-key.pem`, 397 days) for `localhost`, the
/// host name (and `<host>.local`) and every local interface address. The server certificate is
/// made again when a name or address is missing from it or it has less than 30 days left (at
/// start and on SIGHUP); the CA stays, so a phone that trusts it once keeps trusting the server.
public struct LocalCertificateAuthority: Sendable {
    public let folder: URL
    public var caFile: URL { folder.appendingPathComponent("ca.pem") }
    var caKeyFile: URL { folder.appendingPathComponent("ca-key.pem") }
    public var certificateFile: URL { folder.appendingPathComponent("server.pem") }
    public var keyFile: URL { folder.appendingPathComponent("server-key.pem") }

    static let caLifetime: TimeInterval = 10 * 365 * 86_400
    static let serverLifetime: TimeInterval = 397 * 86_400
    static let renewBefore: TimeInterval = 30 * 86_400

    public init(dataDirectory: URL) {
        folder = dataDirectory.appendingPathComponent("tls")
    }

    /// The names the server certificate must carry: `localhost`, the host name, its `.local`
    /// form, and the loopback and interface addresses.
    public static func wantedNames() -> (dns: [String], ip: [String]) {
        var dns = ["localhost"]
        let host = ProcessInfo.processInfo.hostName.lowercased()
        if !host.isEmpty, host != "localhost" {
            dns.append(host)
            if !host.contains(".") { dns.append(host + ".local") }
        }
        var ip = ["127.0.0.1", "::1"]
        for device in (try? System.enumerateDevices()) ?? [] {
            guard let address = device.address?.ipAddress, !address.hasPrefix("fe80") else { continue }
            if !ip.contains(address) { ip.append(address) }
        }
        return (dns, ip)
    }

    /// Makes the CA when there is none and the server certificate when needed; returns the CA.
    @discardableResult
    public func prepare(now: Date = Date()) throws -> Certificate {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let (ca, caKey) = try loadOrMakeCA(now: now)
        let names = Self.wantedNames()
        if try !serverCertificateCovers(names, now: now) {
            try makeServerCertificate(ca: ca, caKey: caKey, names: names, now: now)
        }
        return ca
    }

    /// The CA certificate as PEM (what `/tls/ca.pem` serves).
    public func caPEM() throws -> String { try String(contentsOf: caFile, encoding: .utf8) }

    /// The SHA-256 fingerprint of the CA certificate, `AA:BB:…` (what a phone shows to compare).
    public func caFingerprint() throws -> String {
        ServerTLS.fingerprint(of: try Certificate(pemEncoded: caPEM()))
    }

    // MARK: making

    private func loadOrMakeCA(now: Date) throws -> (Certificate, P256.Signing.PrivateKey) {
        if FileManager.default.fileExists(atPath: caFile.path), FileManager.default.fileExists(atPath: caKeyFile.path) {
            do {
                let certificate = try Certificate(pemEncoded: try String(contentsOf: caFile, encoding: .utf8))
                let key = try P256.Signing.PrivateKey(pemRepresentation: try String(contentsOf: caKeyFile, encoding: .utf8))
                guard Certificate.PublicKey(key.publicKey) == certificate.publicKey else {
                    throw TLSSetupError("\(caKeyFile.path) does not belong to \(caFile.path): remove both to make a new CA (phones must then trust the new one)")
                }
                return (certificate, key)
            } catch let error as TLSSetupError { throw error } catch {
                throw TLSSetupError("\(folder.path): the private CA cannot be read (\(error)); remove ca.pem and ca-key.pem to make a new one (phones must then trust the new one)")
            }
        }
        let key = P256.Signing.PrivateKey()
        let host = ProcessInfo.processInfo.hostName
        let name = try DistinguishedName {
            CommonName("Quintet private CA (\(host))")
            OrganizationName("Quintet")
        }
        let publicKey = Certificate.PublicKey(key.publicKey)
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: publicKey,
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(Self.caLifetime),
            issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: publicKey)
            },
            issuerPrivateKey: Certificate.PrivateKey(key))
        try write(key.pemRepresentation, to: caKeyFile, secret: true)
        try write(certificate.serializeAsPEM().pemString, to: caFile, secret: false)
        return (certificate, key)
    }

    private func serverCertificateCovers(_ names: (dns: [String], ip: [String]), now: Date) throws -> Bool {
        guard let text = try? String(contentsOf: certificateFile, encoding: .utf8),
              FileManager.default.fileExists(atPath: keyFile.path),
              let pem = ServerTLS.pemBlocks(text, label: "CERTIFICATE").first,
              let certificate = try? Certificate(pemEncoded: pem) else { return false }
        guard certificate.notValidAfter.timeIntervalSince(now) > Self.renewBefore else { return false }
        guard let alternatives = try? certificate.extensions.subjectAlternativeNames else { return false }
        let present = Set(alternatives.map { "\($0)" })
        let wanted = names.dns.map { "\(GeneralName.dnsName($0))" } + names.ip.compactMap { Self.ipName($0).map { "\($0)" } }
        return wanted.allSatisfy(present.contains)
    }

    private func makeServerCertificate(ca: Certificate, caKey: P256.Signing.PrivateKey,
                                       names: (dns: [String], ip: [String]), now: Date) throws {
        let key = P256.Signing.PrivateKey()
        let subject = try DistinguishedName {
            CommonName(names.dns.count > 1 ? names.dns[1] : "localhost")
            OrganizationName("Quintet")
        }
        let alternatives = names.dns.map { GeneralName.dnsName($0) } + names.ip.compactMap(Self.ipName)
        let publicKey = Certificate.PublicKey(key.publicKey)
        let caKeyIdentifier = try ca.extensions.subjectKeyIdentifier?.keyIdentifier
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: publicKey,
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(Self.serverLifetime),
            issuer: ca.subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames(alternatives)
                SubjectKeyIdentifier(hash: publicKey)
                if let caKeyIdentifier { AuthorityKeyIdentifier(keyIdentifier: caKeyIdentifier) }
            },
            issuerPrivateKey: Certificate.PrivateKey(caKey))
        try write(key.pemRepresentation, to: keyFile, secret: true)
        try write(certificate.serializeAsPEM().pemString + "\n" + ca.serializeAsPEM().pemString, to: certificateFile, secret: false)
    }

    /// An `iPAddress` name for a textual IPv4 or IPv6 address (nil when it is neither).
    static func ipName(_ text: String) -> GeneralName? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            let bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return .ipAddress(ASN1OctetString(contentBytes: bytes[...]))
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            let bytes = withUnsafeBytes(of: &v6) { Array($0) }
            return .ipAddress(ASN1OctetString(contentBytes: bytes[...]))
        }
        return nil
    }

    /// Writes atomically; keys readable by the owner only.
    private func write(_ text: String, to url: URL, secret: Bool) throws {
        let temporary = url.appendingPathExtension("tmp")
        try Data(text.utf8).write(to: temporary)
        if secret { try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: temporary.path) }
        guard rename(temporary.path, url.path) == 0 else {
            throw TLSSetupError("\(url.path): cannot be written (\(String(cString: strerror(errno))))")
        }
    }
}
