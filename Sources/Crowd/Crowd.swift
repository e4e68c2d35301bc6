// Crowd: anonymous positions in, groups of people nearby out.
//
// Issue 7 builds this module: `CrowdTypes.swift` (the vocabulary and the `CrowdService`
// protocol), `CrowdRules.swift` (limits, validation, the haversine distance), the in-memory
// engine with its grid index and its SQLite store. See docs/crowd.md.
