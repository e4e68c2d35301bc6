import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket

/// A hosted guest (issue 22 §3): the host's studio asks for an invitation on its ingest socket,
/// a guest opens the link, and the two browsers connect over WebRTC directly — the server only
/// relays their signalling (offers, answers, ICE candidates), with no third-party service.
///
/// - Host, on the ingest socket (`/api/radio/ingest`): sends `{"type":"invite"}` and gets
///   `{"type":"invite","token","url"}`; sends `{"type":"signal","data":…}` for the guest; gets
///   `{"type":"guest","event":"joined"|"left"}` and the guest's `{"type":"signal","data":…}`.
/// - Guest: `GET /api/radio/guest?token=…` upgraded to a WebSocket (no account needed: the
///   invitation is the key). It gets `{"type":"welcome","show"}` (or `unknown_invite` /
///   `guest_present` / `host_away` and a close with 1008), then relays `signal` messages both ways.
///   One guest per invitation at a time.
/// - An invitation lives as long as the broadcast's mount: a host socket that reconnects
///   within the grace period keeps it; when the mount ends it is forgotten.
actor RadioGuestRelay {
    struct Room {
        let mount: String
        let show: String
        var guest: (id: UUID, writer: WebSocketOutboundWriter)?
    }

    private var rooms: [String: Room] = [:]
    private var hosts: [String: (id: UUID, writer: WebSocketOutboundWriter)] = [:]

    /// A host socket for `mount` opened (it replaces an earlier one: a reconnection).
    func hostJoined(mount: String, id: UUID, writer: WebSocketOutboundWriter) {
        hosts[mount] = (id, writer)
    }

    /// A host socket closed; its invitations stay while the mount lives (`forget`).
    func hostLeft(mount: String, id: UUID) {
        if hosts[mount]?.id == id { hosts[mount] = nil }
    }

    /// The mount ended: its invitations go, and a connected guest is told.
    func forget(mount: String) async {
        for (token, room) in rooms where room.mount == mount {
            rooms[token] = nil
            if let guest = room.guest {
                try? await guest.writer.write(.text(#"{"type":"ended"}"#))
            }
        }
    }

    func invite(mount: String, show: String) -> String {
        if let existing = rooms.first(where: { $0.value.mount == mount })?.key { return existing }
        let token = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        rooms[token] = Room(mount: mount, show: show, guest: nil)
        return token
    }

    enum JoinRefusal: String, Error { case unknownInvite = "unknown_invite", guestPresent = "guest_present", hostAway = "host_away" }

    /// A guest arrives with `token`: the room's show, after telling the host.
    func guestJoined(token: String, id: UUID, writer: WebSocketOutboundWriter) async -> Result<String, JoinRefusal> {
        guard var room = rooms[token] else { return .failure(.unknownInvite) }
        guard room.guest == nil else { return .failure(.guestPresent) }
        guard let host = hosts[room.mount] else { return .failure(.hostAway) }
        room.guest = (id, writer)
        rooms[token] = room
        try? await host.writer.write(.text(#"{"type":"guest","event":"joined"}"#))
        return .success(room.show)
    }

    func guestLeft(token: String, id: UUID) async {
        guard var room = rooms[token], room.guest?.id == id else { return }
        room.guest = nil
        rooms[token] = room
        if let host = hosts[room.mount] {
            try? await host.writer.write(.text(#"{"type":"guest","event":"left"}"#))
        }
    }

    /// Host → guest (the host's signal text, as it came).
    func toGuest(mount: String, _ text: String) async {
        guard let room = rooms.values.first(where: { $0.mount == mount }), let guest = room.guest else { return }
        try? await guest.writer.write(.text(text))
    }

    /// Guest → host.
    func toHost(token: String, _ text: String) async {
        guard let room = rooms[token], let host = hosts[room.mount] else { return }
        try? await host.writer.write(.text(text))
    }

    /// Whether `text` is a signalling message the relay passes on: a JSON object whose `type` is
    /// `signal` (its `data` is opaque to the server), at most 64 KiB.
    static func isSignal(_ text: String) -> Bool {
        guard text.utf8.count <= 64 * 1024, let data = text.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return false }
        return object["type"] as? String == "signal" && object["data"] != nil
    }

    static func messageType(_ text: String) -> String? {
        guard text.utf8.count <= 64 * 1024, let data = text.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return object["type"] as? String
    }
}

/// `GET /api/radio/guest?token=…`: the guest's signalling socket (``RadioGuestRelay``).
enum RadioGuestRoute {
    static let path = "api/radio/guest"

    static func add(to router: Router<QuintetWebSocketContext>, relay: RadioGuestRelay) {
        router.ws(RouterPath(path), onUpgrade: { inbound, outbound, context in
            let token = context.request.uri.queryParameters.get("token") ?? ""
            let id = UUID()
            switch await relay.guestJoined(token: token, id: id, writer: outbound) {
            case .failure(let refusal):
                let message: String
                switch refusal {
                case .unknownInvite: message = "this invitation is not valid (any more): ask the host for a new link"
                case .guestPresent: message = "another guest is on this invitation"
                case .hostAway: message = "the host's studio is not connected right now: try again in a moment"
                }
                try await outbound.write(.text(RadioIngestRoute.encode(RadioIngestRoute.Refusal(code: refusal.rawValue, message: message))))
                try await outbound.close(.policyViolation, reason: refusal.rawValue)
                return
            case .success(let show):
                struct Welcome: Encodable { var type = "welcome"; let show: String }
                try await outbound.write(.text(RadioIngestRoute.encode(Welcome(show: show))))
            }
            do {
                for try await message in inbound.messages(maxSize: 64 * 1024) {
                    guard case .text(let text) = message, RadioGuestRelay.isSignal(text) else { continue }
                    await relay.toHost(token: token, text)
                }
            } catch {
                // The socket broke: the host hears that the guest left, below.
            }
            await relay.guestLeft(token: token, id: id)
        })
    }

    static func addPlainAnswer(to router: Router<QuintetRequestContext>) {
        router.get(RouterPath(path)) { _, _ -> Response in
            throw APIError.webSocketRequired(docs: "docs/radio.md")
        }
    }
}
