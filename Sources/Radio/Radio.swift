// Radio: Icecast-compatible live broadcasting where every broadcast becomes a podcast episode.
//
// Not built yet: issue 6 (Radio core) fills this module. See docs/radio.md.
