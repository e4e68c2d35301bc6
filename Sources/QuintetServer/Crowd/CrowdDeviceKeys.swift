import Crowd
import Crypto
import Foundation

/// Turns device tokens into ``DeviceKey``s: HMAC-SHA-256 under a 32-byte secret kept in the
/// data folder (`crowd.key`, mode 0600, created once). The token itself is never stored or
/// logged; without the secret a key cannot be linked back to a token by trying tokens.
///
/// ```swift
/// let keys = try CrowdDeviceKeys(dataDirectory: data)
/// let key = keys.key(for: "phone-token-123")
/// ```
public struct CrowdDeviceKeys: Sendable {
    /// The file name of the secret in the data folder.
    public static let fileName = "crowd.key"
    private let secret: SymmetricKey

    /// Keys under an explicit secret (tests).
    public init(secret: [UInt8]) {
        self.secret = SymmetricKey(data: secret)
    }

    /// Keys under the data folder's secret, created (32 random bytes, 0600) if missing. Two
    /// processes starting at once agree: the file is created exclusively and re-read.
    public init(dataDirectory: URL) throws {
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        let path = dataDirectory.appendingPathComponent(Self.fileName).path
        if !FileManager.default.fileExists(atPath: path) {
            var bytes = [UInt8](repeating: 0, count: 32)
            var generator = SystemRandomNumberGenerator()
            for i in bytes.indices { bytes[i] = UInt8.random(in: .min ... .max, using: &generator) }
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
            if descriptor >= 0 {
                let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                fsync(descriptor)
                close(descriptor)
                guard written == 32 else { throw CrowdKeyError(path: path, reason: "could not write the secret") }
            } else if errno != EEXIST {
                throw CrowdKeyError(path: path, reason: "cannot create it (\(String(cString: strerror(errno))))")
            }
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CrowdKeyError(path: path, reason: "cannot read it")
        }
        guard data.count == 32 else {
            throw CrowdKeyError(path: path, reason: "holds \(data.count) bytes, not the 32 of a secret; remove it to make a new one (devices will start afresh)")
        }
        self.secret = SymmetricKey(data: data)
    }

    /// The key of a token.
    public func key(for token: String) -> DeviceKey {
        DeviceKey(bytes: Array(HMAC<SHA256>.authenticationCode(for: Data(token.utf8), using: secret)))
    }
}

/// The data folder's device secret is unusable.
public struct CrowdKeyError: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var reason: String
    public var description: String { "the crowd secret \(path): \(reason)" }
}
