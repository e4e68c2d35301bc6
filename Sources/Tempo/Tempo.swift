// Tempo: BPM estimation of songs from decoded PCM (AudioCore).
//
// Not built yet: issue 3 (Tempo) fills this module. See docs/runner.md.
