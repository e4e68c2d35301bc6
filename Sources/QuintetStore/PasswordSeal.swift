import Crypto
import Foundation

/// Seals passwords with AES-GCM under the data folder's own key (`DATA/secret.key`, 32
/// random bytes, mode 0600, made on first use), so protocols that need a password back —
/// Subsonic's token authentication sends md5(password + salt) — can check it.
///
/// The bcrypt hash stays the primary check; the sealed copy is only as safe as the key
/// file, which is why it lives beside the database with owner-only permissions (the same
/// trade-off Navidrome makes). Deleting `secret.key` disables token logins until each
/// password is set again; plain-password logins keep working.
public struct PasswordSeal: Sendable {
    public static let keyFileName = "secret.key"
    private let key: SymmetricKey

    /// Loads the key of a data folder, creating it if there is none.
    public init(directory: URL) throws {
        let url = directory.appendingPathComponent(Self.keyFileName)
        if let data = FileManager.default.contents(atPath: url.path) {
            guard data.count == 32 else { throw StoreError.unusableDataFolder("\(url.path) is not a 32-byte key") }
            key = SymmetricKey(data: data)
            return
        }
        let fresh = SymmetricKey(size: .bits256)
        let data = fresh.withUnsafeBytes { Data($0) }
        guard FileManager.default.createFile(atPath: url.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw StoreError.unusableDataFolder("cannot write \(url.path)")
        }
        key = fresh
    }

    public func seal(_ password: String) throws -> Data {
        guard let combined = try AES.GCM.seal(Data(password.utf8), using: key).combined else {
            throw StoreError.database("AES-GCM gave no combined form")
        }
        return combined
    }

    /// The password, or nil if the box was sealed with another key or is damaged.
    public func open(_ sealed: Data) -> String? {
        guard let box = try? AES.GCM.SealedBox(combined: sealed), let plain = try? AES.GCM.open(box, using: key) else {
            return nil
        }
        return String(data: plain, encoding: .utf8)
    }
}
