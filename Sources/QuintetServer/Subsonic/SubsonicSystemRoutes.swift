import Foundation
import LibraryCore
import QuintetStore

/// ping, getLicense, getMusicFolders, getScanStatus, startScan,
/// getUser, getUsers.
extension SubsonicAPI {
    static let systemHandlers: [String: BlockingHandler] = [
        "ping": { _, _ in .ok },
        "getLicense": { _, _ in
            var license = SubsonicElement()
            license.set("valid", true)
            return .payload("license", license)
        },
        "getMusicFolders": { api, _ in
            var folder = SubsonicElement()
            folder.set("id", 1)
            folder.set("name", api.library.isDemo ? "Demo library" : api.library.root.lastPathComponent)
            var folders = SubsonicElement()
            folders.add("musicFolder", list: [folder])
            return .payload("musicFolders", folders)
        },
        "getScanStatus": { api, _ in .payload("scanStatus", api.scanStatus()) },
        "startScan": { api, call in
            guard call.user.role == .admin else { throw SubsonicError(.notAuthorized, "only an admin may start a scan") }
            do { try api.library.startScan() } catch CatalogError.scanInProgress {}
            return .payload("scanStatus", api.scanStatus())
        },
        "getUser": { api, call in
            let name = try call.params.required("username")
            if name.lowercased() == call.user.name.lowercased() { return .payload("user", SubsonicViews.user(call.user)) }
            guard call.user.role == .admin else { throw SubsonicError(.notAuthorized, "only an admin may read another user") }
            guard let other = try api.auth.authenticator.users.find(name: name) else {
                throw SubsonicError(.notFound, "no user named \(name.prefix(64))")
            }
            return .payload("user", SubsonicViews.user(other))
        },
        "getUsers": { api, call in
            guard call.user.role == .admin else { throw SubsonicError(.notAuthorized, "only an admin may list users") }
            var users = SubsonicElement()
            users.add("user", list: try api.auth.authenticator.users.list().map(SubsonicViews.user))
            return .payload("users", users)
        },
    ]

    func scanStatus() -> SubsonicElement {
        let status = library.status()
        var e = SubsonicElement()
        e.set("scanning", status.state == "scanning")
        e.set("count", status.songs)
        return e
    }
}
