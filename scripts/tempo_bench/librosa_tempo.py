"""Child process for the librosa rows: `python librosa_tempo.py FILE`.

Loads FILE with librosa's defaults (mono, resampled to 22,050 Hz), runs
`librosa.feature.tempo(y=y, sr=sr)` and prints one JSON object with the BPM and:
- inner_cpu_s / inner_wall_s: load + tempo of FILE alone, measured *after* a warm-up
  call on 3 s of generated noise. librosa imports its submodules lazily (scipy.signal,
  soxr, numba-compiled kernels) on first use, so without the warm-up the "in-process"
  time would still hold ~1.5 s of imports;
- startup_cpu_s: everything before that (interpreter, imports, warm-up), for reference.
The whole-process row of the report is measured from outside (os.wait4) and includes it all.
"""
import json
import os
import sys
import tempfile
import time

import librosa
import numpy as np
import soundfile as sf

with tempfile.TemporaryDirectory() as scratch:
    noise = os.path.join(scratch, "warmup.wav")
    sf.write(noise, np.random.default_rng(0).uniform(-0.1, 0.1, (3 * 44100, 2)), 44100, subtype="PCM_16")
    y, sr = librosa.load(noise)
    librosa.feature.tempo(y=y, sr=sr)

cpu1, wall1 = time.process_time(), time.perf_counter()
y, sr = librosa.load(sys.argv[1])
tempo = librosa.feature.tempo(y=y, sr=sr)
cpu2, wall2 = time.process_time(), time.perf_counter()
print(json.dumps({"bpm": float(tempo[0]), "inner_cpu_s": cpu2 - cpu1, "inner_wall_s": wall2 - wall1,
                  "startup_cpu_s": cpu1, "librosa": librosa.__version__}))
