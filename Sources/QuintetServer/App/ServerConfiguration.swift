import Foundation
import LibraryCore
import Logging
import QuintetStore

/// Everything `quintet serve` needs to start, after flags and environment are resolved.
public struct ServerConfiguration: Sendable {
    /// Interface to listen on; 127.0.0.1 by default (only this machine).
    public var host: String
    /// TCP port; 8080 by default, 0 picks a free one.
    public var port: Int
    /// The data folder (database, caches); created on first start.
    public var dataDirectory: URL
    /// The folder holding the web pages (`Web/`).
    public var webDirectory: URL
    /// Log level of the server's logger.
    public var logLevel: Logger.Level
    /// Largest audio upload accepted (bytes); larger ones get 413.
    public var maxUploadBytes: Int
    /// The music folder to serve; nil serves the demo library (written into the data folder).
    public var libraryDirectory: URL?
    /// The password of the `admin` user created on a first start; nil makes a random one.
    public var adminPassword: String?
    /// The server's public base URL (`https://radio.example.org`), for absolute links in
    /// podcast feeds and printed source URLs; nil uses each request's Host.
    public var publicURL: String?
    /// How often live radio listeners get what arrived since their last write (milliseconds):
    /// longer batches mean fewer, larger socket writes (less CPU per listener) and a longer
    /// wait between reads (players buffer seconds; the connect burst is ~4 s of audio). 500 ms
    /// took 5,000 listeners from 40 % to 25 % of a core against 200 ms (docs/radio.md).
    public var radioBatchMilliseconds: Int = 500
    /// The Crowd's minimum group k: a location is shown only with at least this many people
    /// (1 reproduces the original app; docs/crowd.md, "Privacy").
    public var crowdMinGroup: Int = 3
    /// Seconds after its last report when a device stops counting (default 30 minutes).
    public var crowdExpiry: TimeInterval = 30 * 60
    /// Crowd reports per minute per device and per client address; 0 turns limiting off.
    public var crowdRateLimit: Int = 60
    /// The Crowd's store: nil for `crowd.sqlite` in the data folder, or a `postgres://` URL
    /// for the PostGIS backend.
    public var crowdDatabaseURL: String?
    /// The crowd map's raster tile URL template (`https://…/{z}/{x}/{y}.png`), written into the
    /// crowd page as served; nil keeps the page's own (the offline grid by default).
    public var crowdTiles: String?
    /// The tile provider's credit shown in the map's corner (with `crowdTiles`).
    public var crowdTilesAttribution: String?
    /// A Nominatim-compatible reverse geocoder's base URL for place names in the crowd page's
    /// location panel (asked by the server, at most once a second, cached); nil: off.
    public var crowdGeocoder: URL?
    /// HTTPS on the port: a certificate from files, or a private CA made in the data folder;
    /// nil speaks plain HTTP (docs/phone.md).
    public var tls: TLSSource?
    /// With `tls`: a second port speaking plain HTTP that redirects pages to HTTPS and serves
    /// the trust page (`/tls/`) and Icecast sources and listeners as they are.
    public var httpPort: Int?
    /// Where band members are looked up (`serve --musicbrainz`): musicbrainz.org, a mirror or
    /// stand-in, or off (cached answers only). Off here; `quintet serve` turns it on by default.
    public var musicBrainz: MemberLookups.Source = .off
    /// Who may create an account (`--registration`): open, by invitation (the default) or closed.
    public var registration: RegistrationMode = .invite

    public init(host: String = "127.0.0.1", port: Int = 8080, dataDirectory: URL, webDirectory: URL,
                logLevel: Logger.Level = .info, maxUploadBytes: Int = TempoRoutes.maxUploadBytes,
                libraryDirectory: URL? = nil, adminPassword: String? = nil, publicURL: String? = nil) {
        self.publicURL = publicURL
        self.libraryDirectory = libraryDirectory
        self.adminPassword = adminPassword
        self.host = host
        self.port = port
        self.dataDirectory = dataDirectory
        self.webDirectory = webDirectory
        self.logLevel = logLevel
        self.maxUploadBytes = maxUploadBytes
    }
}

/// The version every part of Quintet reports.
public enum QuintetVersion {
    public static let current = "0.1.0"
}
