"""Thirty minutes of CarWorld with a child tapping now and then, replayed natively by
`quintet playground replay carworld` (`make e2e-long`; too slow for `make test`): cars are
spawned all the time and must be freed, so the live objects (cars, effects, animations, bodies)
stay flat (the last ten minutes hold no more than the first ten, within the traffic's ±25 %) and the game
keeps scoring and resetting to the end."""

from __future__ import annotations

import json
import random
import subprocess

from conftest import quintet_binary

MINUTES = 30


def test_thirty_minutes_of_carworld_keep_memory_flat(tmp_path):
    rng = random.Random(30)
    places = [(341, 298), (620, 520), (742, 284), (620, 312.5), (500, 605), (620, 150)]
    lines = ["quintet-playground-log 1", "game carworld", "seed 30"]
    frames, ms = 0, 0
    while ms < MINUTES * 60_000:
        i = frames
        if i % 240 == 100:  # a tap every 4 s, held for a tenth of a second
            x, y = rng.choice(places)
            lines.append(f"t 1 0 {x} {y}")
        if i % 240 == 106:
            lines.append(f"t 1 3 {x} {y}")
        step = 17 if i % 3 == 0 else 16
        lines.append(f"f {step}")
        frames, ms = frames + 1, ms + step
    log = tmp_path / "thirty-minutes.log"
    log.write_text("\n".join(lines) + "\n")
    result = subprocess.run([str(quintet_binary()), "playground", "replay", "carworld", "--inputs", str(log), "--json"],
                            capture_output=True, text=True, timeout=1800)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    per_minute = report["live_objects_per_minute"]
    print(f"\nlive objects per minute: {per_minute}; at most {report['max_live_objects']}, "
          f"{len(report['events'])} events")
    assert report["frames"] == frames and len(per_minute) == MINUTES
    # Flat: the last ten minutes hold no more than the first ten (the count moves with the traffic,
    # ±25 %), and no moment more than half again the busiest of the first five minutes.
    first, last = per_minute[:10], per_minute[-10:]
    assert sum(last) <= sum(first) * 1.25, f"live objects grow: {per_minute}"
    assert report["max_live_objects"] <= max(per_minute[:5]) * 1.5, per_minute
    freed = sum(1 for e in report["events"] if e["kind"] == 10)
    spawned = sum(1 for e in report["events"] if e["kind"] == 9)
    assert spawned > 300 and spawned - freed <= 40, (spawned, freed)
    last_minute = [e for e in report["events"] if e["frame"] > frames - 3600]
    assert any(e["kind"] == 2 for e in last_minute), "the score still changes in the last minute"
