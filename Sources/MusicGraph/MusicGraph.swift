// MusicGraph: the library explored as a graph (covers, identical recordings, band-member links).
//
// Not built yet: a later Library issue fills this module. See docs/library.md.
