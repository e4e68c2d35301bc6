// Radio: Icecast-compatible live broadcasting where every broadcast becomes a podcast episode.
//
// This module holds the radio's pure, transport-free building blocks (issue 6): MPEG audio and
// ADTS framing, silence frames, the per-mount stream buffer, ICY metadata and its per-listener
// interleaver, Icecast's status JSON and admin answers, the RSS podcast feed and HTTP Range
// parsing. The storage model and the server's SwiftNIO handlers come later and call these for
// every decision. See docs/radio.md.
