import Foundation
import LibraryCore

/// How the server asks MusicBrainz (``MemberLookups`` decides what and when): the server's one
/// NIO client (``HTTPGet``), a 10 s limit per request, answers up to 4 MiB.
enum MusicBrainzClient {
    /// MusicBrainz asks every client for "Application/version ( contact )"
    /// (musicbrainz.org/doc/MusicBrainz_API/Rate_Limiting); the contact is the server
    /// operator's, from `QUINTET_MUSICBRAINZ_CONTACT` (an e-mail address or a URL).
    static var userAgent: String {
        let contact = ProcessInfo.processInfo.environment["QUINTET_MUSICBRAINZ_CONTACT"].flatMap { $0.isEmpty ? nil : $0 }
            ?? "self-hosted music server"
        return "Quintet/\(QuintetVersion.current) ( \(contact) )"
    }

    static let fetch: MemberLookups.Fetch = { url, headers in
        let answer = try await HTTPGet.fetch(url, headers: headers, timeout: .seconds(10), maxBytes: 4 << 20)
        return (answer.status, answer.body)
    }
}
