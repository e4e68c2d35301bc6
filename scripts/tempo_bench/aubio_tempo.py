"""Child process for the "aubio (in-process)" row, run by Debian's /usr/bin/python3 with
its python3-aubio: `python3 aubio_tempo.py [--median] FILE`.

Does exactly what `aubio tempo FILE` does (aubio/cmd.py: source at the native rate,
hop 512, buffer 1024, method "default", BPM = *mean* of 60 / inter-beat intervals,
although cmd.py names it median_bpm) and prints one JSON object with the BPM and the
CPU and wall seconds of that work alone. With --median it reports the median instead
(the informational "aubio-median" tool: aubio's beat tracker without the CLI's mean).
"""
import json
import sys
import time

cpu0, wall0 = time.process_time(), time.perf_counter()
import aubio  # noqa: E402
import numpy as np  # noqa: E402

median = "--median" in sys.argv[1:]
path = [a for a in sys.argv[1:] if a != "--median"][0]
cpu1, wall1 = time.process_time(), time.perf_counter()
source = aubio.source(path, hop_size=512, samplerate=0)
tracker = aubio.tempo("default", 1024, 512, source.samplerate)
beats = []
while True:
    block, read = source()
    if tracker(block)[0] != 0:
        beats.append(tracker.get_last_s())
    if read < source.hop_size:
        break
average = np.median if median else np.mean
bpm = float(average(60.0 / np.diff(beats))) if len(beats) >= 2 else None
cpu2, wall2 = time.process_time(), time.perf_counter()
print(json.dumps({"bpm": bpm, "inner_cpu_s": cpu2 - cpu1, "inner_wall_s": wall2 - wall1,
                  "import_cpu_s": cpu1 - cpu0, "aubio": aubio.version}))
