// MediaTags: pure-Swift readers of audio file tags (ID3v1/v2, FLAC, MP4, Ogg, WAV).
//
// Not built yet: issue 4 (Library) fills this module. See docs/library.md.
