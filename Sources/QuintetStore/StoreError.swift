/// Why the shared store refused an operation. Messages name what to fix.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    case unusableDataFolder(String)
    case database(String)
    case invalidUserName(String)
    case invalidPassword(String)
    case userExists(String)
    case userNotFound(String)

    public var description: String {
        switch self {
        case .unusableDataFolder(let m): "data folder unusable: \(m)"
        case .database(let m): "database error: \(m)"
        case .invalidUserName(let m): "invalid user name: \(m)"
        case .invalidPassword(let m): "invalid password: \(m)"
        case .userExists(let name): "a user named '\(name)' already exists"
        case .userNotFound(let name): "no user named '\(name)'"
        }
    }
}
