// Cadence: running cadence from accelerometer samples and the song that fits it.
//
// Not built yet: issue 5 (Runner engine) fills this module. See docs/runner.md.
