#!/usr/bin/env python3
"""The cadence corpus: a third gait model (D), written apart from the Swift tests' generators and
kept unseen by tuning (docs/runner.md, "Figures": "The corpus, model D").

    .bench/venv/bin/python scripts/cadence_corpus.py build [--out DIR]
    .bench/venv/bin/python scripts/cadence_corpus.py eval [--out DIR] [--json FILE] [--result]

`build` writes DIR (default .bench/cadence-corpus/) with one CSV per trace (time in seconds and
x, y, z in g, as a phone app exports them) and truth.json (step times, activity and placement
per second). `eval` runs `quintet cadence --json` on every trace (QUINTET_BIN, else
.build/release/quintet) and prints coverage, median and p95 error and the share of still
seconds with a cadence, overall and by placement, pace and sample rate, plus the metrical level of the
errors (half, double, other).

Model D, in world coordinates (x forward, y left, z up), numpy only:
- Steps: a cadence that follows the trace's plan (segments of standing, walking 92–128 spm and
  running 140–198 spm, joined by 1.5–4 s ramps), AR(1) step-to-step variability of 1.5–4 %, and
  a left/right timing asymmetry of up to ±3 %.
- Trunk: running as a spring-mass runner — a half-sine ground force over a contact of 30–45 %
  of the step (mean force = body weight), free fall in flight, a heel-strike transient of
  8–20 ms and 0.5–3 g for rear-foot strikers (none for fore-foot) —; walking as a raised cosine
  of 0.15–0.35 g per step with a small strike; braking then propulsion forward; a lateral sway
  at the stride (one sign per foot); each foot's force scaled by its own factor (±3–15 %).
- Placements: swinging hand (the arm a pendulum of 0.45–0.7 m about the shoulder at the stride,
  ±20–50° running, ±10–30° walking, centred 0.1–0.5 rad ahead of the body, a wrist roll at the stride, the trunk's impacts softened by
  a first-order low-pass of 5–12 Hz), held still against the chest (rigid on the trunk, a
  tremor), armband (upper arm: a 0.12–0.25 m pendulum, ±12–30°, centred 0.04–0.2 rad ahead), thigh pocket (a 0.2–0.3 m
  pendulum about the hip, ±20–40°, the pocket leg's strikes stronger), belt (rigid, with pelvis
  roll and yaw at the stride). The phone's orientation: a random rotation, then the limb's.
  Switching between hand and chest takes 1–2 s of handling (a fast turn of the phone).
- Sensor: 50, 60, 100 or 104 Hz with 1–8 % timing jitter, 0.005–0.03 g noise, a bias of up to
  0.03 g per axis, 1/4096 g steps, clipping at ±8 g; 1–3 dropouts of 0.1–0.8 s.
Truth per second s: 60 / the mean step interval of the steps within s ± 2 s, when the wearer
walks or runs throughout [s − 2, s + 2]; still seconds: standing throughout.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
G = 1.0   # accelerations in g
SEED = 4_000_000
FS_SIM = 400.0


def rotation(roll, pitch, yaw):
    cr, sr, cp, sp, cy, sy = math.cos(roll), math.sin(roll), math.cos(pitch), math.sin(pitch), math.cos(yaw), math.sin(yaw)
    rx = np.array([[1, 0, 0], [0, cr, -sr], [0, sr, cr]])
    ry = np.array([[cp, 0, sp], [0, 1, 0], [-sp, 0, cp]])
    rz = np.array([[cy, -sy, 0], [sy, cy, 0], [0, 0, 1]])
    return rz @ ry @ rx


def lowpass(x, cutoff, fs):
    """First-order low-pass, forward then backward (no delay)."""
    a = math.exp(-2 * math.pi * cutoff / fs)
    y = np.empty_like(x)
    for direction in (1, -1):
        src = x if direction == 1 else y[::-1].copy()
        out = np.empty_like(src)
        acc = src[0]
        for i in range(len(src)):
            acc = a * acc + (1 - a) * src[i]
            out[i] = acc
        y = out if direction == 1 else out[::-1]
    return y


def plan(rng, kind):
    """Segments (activity, placement, spm, seconds) of one trace."""
    def pace(activity):
        return float(rng.uniform(92, 128)) if activity == "walk" else float(rng.uniform(140, 198))
    if kind == "hand-run":
        return [("still", "hand", 0, rng.uniform(5, 10)), ("run", "hand", pace("run"), rng.uniform(40, 70)),
                ("still", "hand", 0, rng.uniform(5, 8))]
    if kind == "hand-chest":
        spm = pace("run")
        segs = [("still", "chest", 0, rng.uniform(4, 8))]
        for i in range(4):
            segs.append(("run", "hand" if i % 2 == 0 else "chest", spm + rng.uniform(-6, 6), rng.uniform(15, 30)))
        return segs + [("still", "chest", 0, rng.uniform(4, 8))]
    if kind == "armband-run":
        return [("still", "armband", 0, rng.uniform(4, 8)), ("run", "armband", pace("run"), rng.uniform(30, 50)),
                ("run", "armband", pace("run"), rng.uniform(30, 50)), ("still", "armband", 0, rng.uniform(4, 8))]
    if kind == "hand-walk-run":
        return [("walk", "hand", pace("walk"), rng.uniform(20, 35)), ("run", "hand", pace("run"), rng.uniform(30, 50)),
                ("walk", "hand", pace("walk"), rng.uniform(20, 35)), ("still", "hand", 0, rng.uniform(5, 10))]
    if kind in ("pocket", "belt", "armband-walk"):
        placement = "armband" if kind == "armband-walk" else kind
        return [("still", placement, 0, rng.uniform(4, 8)), ("walk", placement, pace("walk"), rng.uniform(30, 45)),
                ("run", placement, pace("run"), rng.uniform(30, 45)), ("still", placement, 0, rng.uniform(4, 8))]
    raise ValueError(kind)


def simulate(seed, kind):
    rng = np.random.default_rng(seed)
    segs = plan(rng, kind)
    total = sum(s[3] for s in segs)
    n = int(total * FS_SIM)
    t = np.arange(n) / FS_SIM
    # Per-sample activity, placement and target cadence (ramps of 1.5–4 s between paces).
    activity = np.empty(n, dtype=object)
    placement = np.empty(n, dtype=object)
    target = np.zeros(n)
    start = 0.0
    for act, place, spm, dur in segs:
        i0, i1 = int(start * FS_SIM), min(n, int((start + dur) * FS_SIM))
        activity[i0:i1], placement[i0:i1], target[i0:i1] = act, place, spm
        start += dur
    activity[activity == None] = segs[-1][0]  # noqa: E711
    placement[placement == None] = segs[-1][1]  # noqa: E711
    ramp = rng.uniform(1.5, 4.0)
    moving = np.array([a != "still" for a in activity])
    smooth = np.convolve(np.where(moving, target, np.nan_to_num(target)), np.ones(int(ramp * FS_SIM)) / int(ramp * FS_SIM), "same")
    cadence = np.where(moving, np.maximum(smooth, 60), 0)

    # Steps: walk the phase, with AR(1) variability and left/right asymmetry.
    variability = rng.uniform(0.015, 0.04)
    asym = rng.uniform(-0.03, 0.03)
    steps, feet = [], []
    i = 0
    noise = 0.0
    foot = 0
    while i < n:
        if not moving[i]:
            i += 1
            continue
        noise = 0.6 * noise + math.sqrt(1 - 0.36) * rng.normal(0, variability)
        period = 60.0 / cadence[i] * (1 + noise) * (1 + (asym if foot == 0 else -asym))
        steps.append(t[i]); feet.append(foot)
        foot ^= 1
        i += max(1, int(period * FS_SIM))
        # A step that would end inside standing ends the walk there.
    steps = np.array(steps); feet = np.array(feet)

    # Trunk acceleration in world frame.
    acc = np.zeros((n, 3))
    strike = rng.uniform(0.5, 3.0) if rng.random() < 0.6 else 0.0
    strike_ms = rng.uniform(8, 20) / 1000
    contact_frac = rng.uniform(0.30, 0.45)
    foot_gain = 1 + np.array([1, -1]) * rng.uniform(0.03, 0.15)
    sway = rng.uniform(0.1, 0.3)
    brake = rng.uniform(0.2, 0.5)
    walk_amp = rng.uniform(0.15, 0.35)
    for k, (ts, f) in enumerate(zip(steps, feet)):
        period = (steps[k + 1] - ts) if k + 1 < len(steps) else 60.0 / max(cadence[min(n - 1, int(ts * FS_SIM))], 60)
        if period > 1.5:
            period = 60.0 / max(cadence[min(n - 1, int(ts * FS_SIM))], 60)
        i0 = int(ts * FS_SIM)
        i1 = min(n, i0 + int(period * FS_SIM))
        if i1 <= i0:
            continue
        u = (t[i0:i1] - ts) / period
        running = activity[i0] == "run"
        g = foot_gain[f]
        if running:
            tc = contact_frac
            force = np.where(u < tc, (math.pi / (2 * tc)) * np.sin(np.pi * np.minimum(u / tc, 1)), 0.0)
            acc[i0:i1, 2] += g * force - 1.0
            if strike > 0:
                tt = t[i0:i1] - ts
                acc[i0:i1, 2] += g * strike * np.exp(-0.5 * ((tt - strike_ms) / (strike_ms / 2.5)) ** 2)
            acc[i0:i1, 0] += brake * g * np.where(u < tc, -np.sin(2 * np.pi * np.minimum(u / tc, 1)), 0.0)
        else:
            acc[i0:i1, 2] += g * walk_amp * np.cos(2 * np.pi * u)
            tt = t[i0:i1] - ts
            acc[i0:i1, 2] += g * 0.3 * walk_amp * np.exp(-0.5 * ((tt - 0.02) / 0.008) ** 2)
            acc[i0:i1, 0] += 0.5 * brake * g * -np.sin(2 * np.pi * u)
        acc[i0:i1, 1] += (1 if f == 0 else -1) * sway * np.sin(np.pi * u) * (1 if running else 0.6)

    # Stride phase (0..2π over two steps) for the limbs.
    phase = np.zeros(n)
    if len(steps) > 1:
        idx = np.searchsorted(steps, t, side="right") - 1
        valid = idx >= 0
        nxt = np.clip(idx + 1, 0, len(steps) - 1)
        span = np.where(nxt > idx, steps[nxt] - steps[np.clip(idx, 0, None)], 0.35)
        span = np.where((span <= 0) | (span > 1.5), 0.35, span)
        frac = np.where(valid, (t - steps[np.clip(idx, 0, None)]) / span, 0)
        phase = np.pi * (np.where(valid, feet[np.clip(idx, 0, None)], 0) + np.clip(frac, 0, 1))

    # Placement: limb pendulum and orientation.
    base = rotation(*(rng.uniform(-math.pi, math.pi, 3)))
    hand_r, hand_amp_run, hand_amp_walk = rng.uniform(0.45, 0.7), math.radians(rng.uniform(20, 50)), math.radians(rng.uniform(10, 30))
    arm_r, arm_amp = rng.uniform(0.12, 0.25), math.radians(rng.uniform(12, 30))
    thigh_r, thigh_amp = rng.uniform(0.2, 0.3), math.radians(rng.uniform(20, 40))
    wrist_amp = math.radians(rng.uniform(5, 30))
    swing_offset = rng.uniform(0.1, 0.5)
    hand_cut = rng.uniform(5, 12)
    trunk_soft = np.stack([lowpass(acc[:, j], hand_cut, FS_SIM) for j in range(3)], axis=1)
    out = np.zeros((n, 3))
    handling = np.zeros(n)
    # Handling: 1–2 s around each change of placement.
    for k in range(1, n):
        if placement[k] != placement[k - 1]:
            w = int(rng.uniform(1, 2) * FS_SIM)
            handling[max(0, k - w // 2): k + w // 2] = 1
    for place in ("hand", "chest", "armband", "pocket", "belt"):
        sel = np.array([p == place for p in placement])
        if not sel.any():
            continue
        ph = phase[sel]
        act = activity[sel]
        if place in ("hand", "armband", "pocket"):
            if place == "hand":
                r = hand_r
                amp = np.where(act == "run", hand_amp_run, np.where(act == "walk", hand_amp_walk, 0.0))
                trunk = trunk_soft[sel]
            elif place == "armband":
                r, amp, trunk = arm_r, np.where(act == "still", 0.0, arm_amp), acc[sel]
            else:
                r, amp, trunk = thigh_r, np.where(act == "still", 0.0, thigh_amp), acc[sel]
            # The swing centres ahead of the body (a bent elbow carries the hand forward): this
            # offset is what lets the stride show in the acceleration's magnitude.
            offset = np.where(amp > 0, swing_offset if place == "hand" else 0.4 * swing_offset, 0.0)
            offset = lowpass(offset, 1.0, FS_SIM)
            theta = offset + amp * np.sin(ph)
            dt = 1 / FS_SIM
            dtheta = np.gradient(theta, dt)
            ddtheta = np.gradient(dtheta, dt)
            # Pendulum in the sagittal plane (x forward, z up), hanging down at theta = 0.
            ax = r * (ddtheta * np.cos(theta) - dtheta ** 2 * np.sin(theta))
            az = r * (ddtheta * np.sin(theta) + dtheta ** 2 * np.cos(theta))
            world = trunk + np.stack([ax / 9.81, np.zeros_like(ax), az / 9.81], axis=1)
            world[:, 2] += 1.0   # specific force: + g upwards
            roll = wrist_amp * np.sin(ph + 0.7) if place == "hand" else np.zeros_like(theta)
            # Device frame: undo the limb's pitch (theta about y) and the wrist's roll, then base.
            c, s = np.cos(theta), np.sin(theta)
            x1 = c * world[:, 0] - s * world[:, 2]
            z1 = s * world[:, 0] + c * world[:, 2]
            y1 = world[:, 1]
            cr, sr = np.cos(roll), np.sin(roll)
            y2 = cr * y1 + sr * z1
            z2 = -sr * y1 + cr * z1
            dev = np.stack([x1, y2, z2], axis=1) @ base
        else:
            world = acc[sel].copy()
            world[:, 2] += 1.0
            if place == "belt":
                roll = np.radians(4) * np.sin(ph)
                y1 = np.cos(roll) * world[:, 1] + np.sin(roll) * world[:, 2]
                z1 = -np.sin(roll) * world[:, 1] + np.cos(roll) * world[:, 2]
                world = np.stack([world[:, 0], y1, z1], axis=1)
            else:
                world += rng.normal(0, 0.004, world.shape)
            dev = world @ base
        out[sel] = dev
    # Handling: a fast turn of the phone.
    hsel = handling > 0
    if hsel.any():
        k = np.where(hsel)[0]
        ang = np.cumsum(rng.normal(0, 0.02, len(k)))
        x0, z0 = out[k, 0].copy(), out[k, 2].copy()
        out[k, 0] = x0 * np.cos(ang) - z0 * np.sin(ang)
        out[k, 2] = x0 * np.sin(ang) + z0 * np.cos(ang)
        out[k] += rng.normal(0, 0.15, (len(k), 3))
    # Standing: sway.
    still = ~moving
    out[still] += lowpass(rng.normal(0, 0.03, n), 2.0, FS_SIM)[still, None] * np.array([1, 0.6, 0.3])

    # Sensor sampling.
    fs = float(rng.choice([50, 60, 100, 104]))
    jitter = rng.uniform(0.01, 0.08)
    times = [0.0]
    while times[-1] < total - 0.05:
        times.append(times[-1] + (1 / fs) * (1 + rng.uniform(-jitter, jitter)))
    times = np.array(times[:-1])
    keep = np.ones(len(times), dtype=bool)
    for _ in range(int(rng.integers(1, 4))):
        g0 = rng.uniform(5, total - 5)
        keep &= ~((times > g0) & (times < g0 + rng.uniform(0.1, 0.8)))
    times = times[keep]
    samples = np.stack([np.interp(times, t, out[:, j]) for j in range(3)], axis=1)
    samples += rng.normal(0, rng.uniform(0.005, 0.03), samples.shape) + rng.uniform(-0.03, 0.03, 3)
    samples = np.clip(np.round(samples * 4096) / 4096, -8, 8)

    # Truth per second.
    seconds = []
    for s in range(int(total)):
        lo, hi = s - 2.0, s + 2.0
        i_lo, i_hi = int(max(0, lo) * FS_SIM), int(min(total, hi) * FS_SIM)
        window_acts = set(activity[i_lo:i_hi]) if lo >= 0 and hi <= total else {"edge"}
        inside = steps[(steps >= lo) & (steps <= hi)]
        entry = {"t": s, "place": placement[min(n - 1, int(s * FS_SIM))]}
        if window_acts <= {"walk", "run"} and len(inside) >= 3:
            entry["spm"] = 60.0 / float(np.mean(np.diff(inside)))
            entry["state"] = "run" if "run" in window_acts else "walk"
        elif window_acts == {"still"}:
            entry["state"] = "still"
        else:
            entry["state"] = "mixed"
        seconds.append(entry)
    return times, samples, {"kind": kind, "seed": seed, "rate_hz": fs, "seconds": seconds}


KINDS = [("hand-run", 10), ("hand-chest", 8), ("armband-run", 6), ("hand-walk-run", 6),
         ("armband-walk", 4), ("pocket", 4), ("belt", 4)]


def build(out: Path):
    out.mkdir(parents=True, exist_ok=True)
    truth = []
    seed = SEED
    for kind, count in KINDS:
        for i in range(count):
            seed += 1
            times, samples, info = simulate(seed, kind)
            name = f"{kind}-{i:02d}.csv"
            with open(out / name, "w") as f:
                f.write("seconds_elapsed,x,y,z\n")
                for tm, (x, y, z) in zip(times, samples):
                    f.write(f"{tm:.4f},{x:.5f},{y:.5f},{z:.5f}\n")
            info["file"] = name
            truth.append(info)
            print(f"cadence-corpus: {name} {info['rate_hz']:.0f} Hz {len(times)} samples", file=sys.stderr, flush=True)
    (out / "truth.json").write_text(json.dumps({"seed": SEED, "traces": truth}))


def evaluate(out: Path, json_path: str | None, result: bool) -> int:
    binary = os.environ.get("QUINTET_BIN") or str(REPO / ".build/release/quintet")
    traces = json.loads((out / "truth.json").read_text())["traces"]
    rows = []   # (place, state, truth spm, estimate or None, kind)
    cpu = 0.0
    for trace in traces:
        before = os.times()
        done = subprocess.run([binary, "cadence", "--json", str(out / trace["file"])], capture_output=True, text=True)
        after = os.times()
        cpu += (after.children_user - before.children_user) + (after.children_system - before.children_system)
        if done.returncode != 0:
            print(f"cadence-corpus: {trace['file']}: {done.stderr.strip()}", file=sys.stderr)
            return 1
        timeline = json.loads(done.stdout)["timeline"]
        by_second = {}
        for reading in timeline:
            s = round(reading["t"])
            if abs(reading["t"] - s) <= 0.5:
                by_second[s] = reading["spm"]
        for sec in trace["seconds"]:
            if sec["state"] in ("walk", "run", "still"):
                rows.append((sec["place"], sec["state"], sec.get("spm"), by_second.get(sec["t"]), trace["kind"],
                             trace["rate_hz"]))

    def stats(selected):
        moving = [r for r in selected if r[1] != "still"]
        still = [r for r in selected if r[1] == "still"]
        given = [r for r in moving if r[3] is not None]
        errors = np.array([abs(r[3] - r[2]) for r in given])
        levels = {"half": 0, "double": 0, "other": 0}
        for r in given:
            if abs(r[3] - r[2]) > 6:
                ratio = r[3] / r[2]
                levels["half" if abs(ratio - 0.5) < 0.06 else "double" if abs(ratio - 2) < 0.12 else "other"] += 1
        return {"moving_s": len(moving), "coverage": len(given) / len(moving) if moving else None,
                "median": float(np.median(errors)) if len(errors) else None,
                "p95": float(np.percentile(errors, 95)) if len(errors) else None,
                "still_s": len(still),
                "still_with_cadence": sum(r[3] is not None for r in still) / len(still) if still else None,
                **levels}

    def fmt(v, pct=False):
        if v is None:
            return "–"
        return f"{100 * v:.1f} %" if pct else f"{v:.2f}"

    def line(label, st):
        return (f"| {label} | {st['moving_s']} | {fmt(st['coverage'], True)} | {fmt(st['median'])} | {fmt(st['p95'])} | "
                f"{st['still_s']} | {fmt(st['still_with_cadence'], True)} | {st['half']} / {st['double']} / {st['other']} |")

    print(f"## Cadence on the corpus (model D, {len(traces)} traces; unseen by tuning), {binary}\n")
    print("| seconds | moving s | cadence given | median error spm | p95 error spm | still s | still with a cadence | errors > 6 spm: half / double / other |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    overall = stats(rows)
    print(line("all", overall))
    for place in ("hand", "chest", "armband", "pocket", "belt"):
        for state in ("run", "walk"):
            sel = [r for r in rows if r[0] == place and r[1] == state]
            if sel:
                print(line(f"{place}, {state}", stats(sel)))
        still = [r for r in rows if r[0] == place and r[1] == "still"]
        if still:
            print(line(f"{place}, standing", stats(still)))
    for lo, hi in ((90, 130), (140, 160), (160, 180), (180, 200)):
        sel = [r for r in rows if r[1] != "still" and lo <= r[2] < hi]
        if sel:
            print(line(f"{lo}–{hi} spm", stats(sel)))
    for rate in sorted({r[5] for r in rows}):
        print(line(f"sampled at {rate:.0f} Hz", stats([r for r in rows if r[5] == rate])))
    print(f"\nCPU of `quintet cadence` over the {len(traces)} traces (whole processes): {cpu:.2f} s")
    if json_path:
        Path(json_path).write_text(json.dumps({"overall": overall, "rows": rows}))
    if result:
        sys.path.insert(0, str(REPO / "scripts"))
        import bench_result
        from bench_result import figure
        figures = {k: figure(v, "fraction" if k in ("coverage", "still_with_cadence") else "spm" if k in ("median", "p95") else "seconds", "quintet")
                   for k, v in overall.items() if v is not None}
        bench_result.write("cadence-corpus", parameters={"traces": len(traces), "seed": SEED},
                           figures=figures,
                           ratios={"p95_over_3spm": overall["p95"] / 3, "median_over_1spm": overall["median"],
                                   "coverage": overall["coverage"], "still_with_cadence": overall["still_with_cadence"]})
    return 0


def main(argv):
    parser = argparse.ArgumentParser(prog="cadence_corpus.py", description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["build", "eval"])
    parser.add_argument("--out", default=str(REPO / ".bench/cadence-corpus"))
    parser.add_argument("--json")
    parser.add_argument("--result", action="store_true")
    args = parser.parse_args(argv)
    if args.command == "build":
        build(Path(args.out))
        return 0
    return evaluate(Path(args.out), args.json, args.result)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
