// Crowd: anonymous positions in, groups of people nearby out.
//
// Not built yet: issue 7 (Crowd) fills this module. See docs/crowd.md.
