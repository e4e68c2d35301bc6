// LibraryCore: the music catalog (scanner, artists, albums, songs, playlists) stored with GRDB.
//
// Not built yet: issue 4 (Library) fills this module. See docs/library.md.
