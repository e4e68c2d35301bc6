"""Tempo benchmark for `quintet tempo`: a synthesised test set (MIDI composed here,
rendered with fluidsynth) and a side-by-side run against aubio and librosa.
Entry point: scripts/bench-tempo (see docs/tempo-bench-notes.md)."""
