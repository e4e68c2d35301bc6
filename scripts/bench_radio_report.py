#!/usr/bin/env python3
"""The table of scripts/bench-radio: icecast2 and quintet side by side, the ratios, the targets.

Usage: bench_radio_report.py RESULTS_DIR --runs R -t T -n N [--json FILE] [--no-result]
                             [--tls [--suite S] [--no-plain]]

Also writes Benchmarks/results/radio-<UTC time>.json (scripts/bench_result.py) unless --no-result:
each server's figures (the median over the runs) and the ratios quintet ÷ icecast2 and quintet ÷
the issue's bounds.

RESULTS_DIR holds, per run r and server s (icecast2, quintet): s-r.listeners.json (listeners.py
--json), s-r.procstat.json (procstat.py --json) and s-r.offset (seconds from procstat's start to
the client's start). Server CPU is averaged over the steady window: from the end of the client's
ramp + 3 s (its bitrate warm-up) to the end of its reading, in procstat's 1 s samples.

--tls (bench-radio --tls): the pair over TLS, s-tls-r.* (with s-tls-r.tls: the protocol and suite
openssl s_client got, and the stunnel columns of procstat: the client-side TLS, reported, never
the server's), next to the plain pair of the same run (s-r.*, unless --no-plain); the targets are
the issue's TLS line (CPU and RSS ≤ icecast2's, every listener served), and the result file is
Benchmarks/results/radio-tls-<UTC time>.json.
"""
import argparse
import json
import os
import statistics
import sys

SERVERS = ("icecast2", "quintet")
BITRATE = 128.0


def load(d, name):
    with open(os.path.join(d, name)) as f:
        return json.load(f) if name.endswith(".json") else float(f.read().strip())


def figures(d, server, run, t):
    lj = load(d, f"{server}-{run}.listeners.json")
    pj = load(d, f"{server}-{run}.procstat.json")
    offset = load(d, f"{server}-{run}.offset")
    tls_file = os.path.join(d, f"{server}-{run}.tls")
    tls = open(tls_file).read().strip() if os.path.exists(tls_file) else None
    rows = pj["series"]
    w0 = offset + lj["ramp_s"] + 3.5
    w1 = offset + lj["ramp_s"] + t
    steady = [r for r in rows if w0 <= r["t"] <= w1]
    cpu = [r["server_cpu"] for r in steady]
    rss = [r["server_rss_mb"] for r in rows]
    st_cpu = [r["stunnel_cpu"] for r in steady if "stunnel_cpu" in r]
    st_rss = [r["stunnel_rss_mb"] for r in rows if "stunnel_rss_mb" in r]
    # CPU seconds over the steady window: procstat's samples are 1 s apart
    dt = (steady[-1]["t"] - steady[0]["t"]) / (len(steady) - 1) if len(steady) > 1 else 1.0
    b = lj["bitrate_kbps"]
    icy = lj.get("icy", {})
    return {
        "requested": lj["requested"], "established": lj["established"], "failed": lj["failed"],
        "failed_reasons": lj["failed_reasons"], "dropped": lj["dropped"],
        "dropped_reasons": lj["dropped_reasons"], "ramp_s": lj["ramp_s"],
        "kbps_min": b["min"], "kbps_median": b["median"], "kbps_n": b["n"],
        "below_95": b["below_threshold"], "threshold_kbps": b["threshold"],
        "ttfb_p50_ms": lj["ttfb_ms"]["p50"], "ttfb_p95_ms": lj["ttfb_ms"]["p95"],
        "max_read_gap_p50_s": lj["max_read_gap_s"]["p50"],
        "icy_ok": icy.get("parse_ok"), "mp3_sync_bad": lj["mp3_sync_bad"],
        "cpu_mean": statistics.mean(cpu) if cpu else None, "cpu_max": max(cpu) if cpu else None,
        "steady_samples": len(cpu),
        "rss_max_mb": max(rss) if rss else None, "rss_idle_mb": rss[0] if rss else None,
        "client_cpu": lj["client_cpu"]["percent_of_one_core"],
        "machine_busy": statistics.mean(r["machine_busy"] for r in steady) if steady else None,
        "source_cpu": statistics.mean(r["source_cpu"] for r in steady) if steady else None,
        "cpu_seconds": sum(cpu) / 100.0 * dt if cpu else None,
        "window_s": len(cpu) * dt if cpu else None,
        "tls": tls,
        "stunnel_cpu": statistics.mean(st_cpu) if st_cpu else None,
        "stunnel_rss_max_mb": max(st_rss) if st_rss else None,
    }


def f(v, fmt="{:.1f}"):
    return "–" if v is None else fmt.format(v)


def ratio(a, b):
    return None if a is None or b in (None, 0) else a / b


def table(ice, q):
    lines = []
    rows = [
        ("listeners connected / requested", lambda x: f"{x['established']} / {x['requested']}", None),
        ("failed to connect", lambda x: f"{x['failed']}" + (f" {x['failed_reasons']}" if x['failed'] else ""), None),
        ("dropped by the server", lambda x: f"{x['dropped']}" + (f" {x['dropped_reasons']}" if x['dropped'] else ""), None),
        ("kbps min / median", lambda x: f"{f(x['kbps_min'])} / {f(x['kbps_median'])}", None),
        (f"listeners under 95 % ({0.95 * BITRATE:.1f} kbps)", lambda x: f"{x['below_95']} of {x['kbps_n']}", None),
        ("time to first byte p50 / p95 (ms)", lambda x: f"{f(x['ttfb_p50_ms'], '{:.0f}')} / {f(x['ttfb_p95_ms'], '{:.0f}')}", "ttfb_p50_ms"),
        ("largest read gap p50 (s)", lambda x: f(x['max_read_gap_p50_s'], '{:.2f}'), None),
        ("ICY blocks parsed, title seen, MP3 walks", lambda x: "ok" if x['icy_ok'] and not x['mp3_sync_bad'] else "FAILED", None),
        ("server CPU % of one core, mean / max", lambda x: f"{f(x['cpu_mean'])} / {f(x['cpu_max'])}", "cpu_mean"),
        ("server CPU seconds in the window (s)", lambda x: f"{f(x['cpu_seconds'])} ({f(x['window_s'], '{:.0f}')})", "cpu_seconds"),
        ("server RSS max (idle) MB", lambda x: f"{f(x['rss_max_mb'])} ({f(x['rss_idle_mb'])})", "rss_max_mb"),
        ("client CPU % of one core", lambda x: f(x['client_cpu']), None),
        ("machine busy % (2 cores = 200)", lambda x: f(x['machine_busy']), None),
        ("ramp (s)", lambda x: f(x['ramp_s']), None),
    ]
    if ice.get("tls") or q.get("tls"):
        rows.append(("TLS negotiated (openssl s_client)", lambda x: x['tls'] or "–", None))
    if ice.get("stunnel_cpu") is not None or q.get("stunnel_cpu") is not None:
        rows += [
            ("stunnel CPU % of one core (client side)", lambda x: f(x['stunnel_cpu']), None),
            ("stunnel RSS max MB (client side)", lambda x: f(x['stunnel_rss_max_mb']), None),
        ]
    w0 = max(len(r[0]) for r in rows)
    cells = [(label, fn(ice), fn(q), f(ratio(q[k], ice[k]), "{:.2f}") if k else "") for label, fn, k in rows]
    w1 = max(len("icecast2"), *(len(c[1]) for c in cells))
    w2 = max(len("quintet"), *(len(c[2]) for c in cells))
    lines.append(f"| {'':{w0}} | {'icecast2':>{w1}} | {'quintet':>{w2}} | quintet ÷ icecast2 |")
    lines.append(f"|{'-' * (w0 + 2)}|{'-' * (w1 + 1)}:|{'-' * (w2 + 1)}:|-------------------:|")
    for label, a, b, r in cells:
        lines.append(f"| {label:{w0}} | {a:>{w1}} | {b:>{w2}} | {r:>18} |")
    return "\n".join(lines)


def targets(ice, q, n):
    """The issue's acceptance line, for quintet (icecast2 is the yardstick)."""
    return [
        (f"{n} listeners connected, none failed", q["established"] == n and q["failed"] == 0),
        ("none dropped", q["dropped"] == 0),
        ("none below 95 % of 128 kbps", q["below_95"] == 0 and q["kbps_n"] == q["established"]),
        ("ICY blocks and MP3 intact", bool(q["icy_ok"]) and not q["mp3_sync_bad"]),
        (f"server CPU mean ≤ icecast2's ({f(q['cpu_mean'])} vs {f(ice['cpu_mean'])})",
         q["cpu_mean"] is not None and ice["cpu_mean"] is not None and q["cpu_mean"] <= ice["cpu_mean"]),
        (f"RSS max under 100 MB ({f(q['rss_max_mb'])})", q["rss_max_mb"] is not None and q["rss_max_mb"] < 100),
        (f"TTFB p50 under 200 ms ({f(q['ttfb_p50_ms'], '{:.0f}')} ms)",
         q["ttfb_p50_ms"] is not None and q["ttfb_p50_ms"] < 200),
    ]


def tls_targets(ice, q, n):
    """Issue 18's line: quintet's CPU and RSS at N TLS listeners ≤ icecast2's, every one served."""
    return [
        (f"{n} TLS listeners connected, none failed", q["established"] == n and q["failed"] == 0),
        ("none dropped", q["dropped"] == 0),
        ("none below 95 % of 128 kbps", q["below_95"] == 0 and q["kbps_n"] == q["established"]),
        ("ICY blocks and MP3 intact", bool(q["icy_ok"]) and not q["mp3_sync_bad"]),
        (f"server CPU mean ≤ icecast2's over TLS ({f(q['cpu_mean'])} vs {f(ice['cpu_mean'])} % of a core)",
         q["cpu_mean"] is not None and ice["cpu_mean"] is not None and q["cpu_mean"] <= ice["cpu_mean"]),
        (f"server RSS max ≤ icecast2's over TLS ({f(q['rss_max_mb'])} vs {f(ice['rss_max_mb'])} MB)",
         q["rss_max_mb"] is not None and ice["rss_max_mb"] is not None and q["rss_max_mb"] <= ice["rss_max_mb"]),
        ("icecast2 served every listener too (else the comparison is unequal)",
         ice["established"] == n and ice["dropped"] == 0 and ice["below_95"] == 0),
    ]


def main_tls(a):
    out = {"listeners": a.n, "seconds": a.t, "suite": a.suite, "runs": []}
    all_met = True
    for r in range(1, a.runs + 1):
        try:
            ice = figures(a.results, "icecast2-tls", r, a.t)
            q = figures(a.results, "quintet-tls", r, a.t)
            plain = None if a.no_plain else (figures(a.results, "icecast2", r, a.t),
                                             figures(a.results, "quintet", r, a.t))
        except (OSError, ValueError, KeyError) as e:
            print(f"run {r}: results incomplete ({e})", file=sys.stderr)
            return 1
        tg = tls_targets(ice, q, a.n)
        all_met = all_met and all(ok for _, ok in tg)
        client = ("stunnel4 in front of listeners.py" if a.tls_client == "stunnel"
                  else "listeners.py with TLS in its event loop, scripts/bench-radio.d/tls_listeners.py")
        print(f"\nRun {r}: {a.n} ICY listeners over TLS ({client}; offer: {a.suite}), {a.t:g} s after the ramp\n")
        print(table(ice, q))
        print()
        for label, ok in tg:
            print(f"  [{'met' if ok else 'NOT met'}] {label}")
        row = {"icecast2_tls": ice, "quintet_tls": q, "targets": [{"target": l, "met": ok} for l, ok in tg]}
        if plain:
            print(f"\nRun {r}: the same, plain HTTP (no stunnel)\n")
            print(table(*plain))
            row["icecast2"], row["quintet"] = plain
            print("\nWhat TLS costs each server (TLS ÷ plain, same run):")
            for name, tls_f, plain_f in (("icecast2", ice, plain[0]), ("quintet", q, plain[1])):
                print(f"  {name}: CPU {f(ratio(tls_f['cpu_mean'], plain_f['cpu_mean']), '{:.2f}')}×"
                      f" ({f(plain_f['cpu_mean'])} → {f(tls_f['cpu_mean'])} % of a core),"
                      f" RSS {f(ratio(tls_f['rss_max_mb'], plain_f['rss_max_mb']), '{:.2f}')}×"
                      f" ({f(plain_f['rss_max_mb'])} → {f(tls_f['rss_max_mb'])} MB)")
        out["runs"].append(row)
    out["all_targets_met"] = all_met
    print(f"\nAll TLS targets met in every run: {'yes' if all_met else 'no'}")
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(out, fh, indent=1)
    if not a.no_result:
        write_tls_result(out, a)
    return 0


def write_tls_result(out, a):
    """Benchmarks/results/radio-tls-<UTC time>.json: medians over the runs, per server and variant."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import bench_result
    from bench_result import figure

    def values(key, field):
        return [r[key][field] for r in out["runs"] if key in r and r[key].get(field) is not None]

    def med(key, field):
        v = values(key, field)
        return statistics.median(v) if v else None

    units = {"cpu_mean": "% of one core (steady window mean)", "cpu_max": "% of one core",
             "cpu_seconds": "CPU s over the steady window", "window_s": "s",
             "rss_max_mb": "MB", "rss_idle_mb": "MB", "ttfb_p50_ms": "ms", "ttfb_p95_ms": "ms",
             "kbps_min": "kbps", "kbps_median": "kbps", "established": "listeners", "failed": "listeners",
             "dropped": "listeners", "below_95": "listeners", "client_cpu": "% of one core",
             "machine_busy": "% (2 cores = 200)", "stunnel_cpu": "% of one core (client side)",
             "stunnel_rss_max_mb": "MB (client side)"}
    tool = {"icecast2_tls": "icecast2 (Debian) over TLS", "quintet_tls": "quintet serve over TLS",
            "icecast2": "icecast2 (Debian)", "quintet": "quintet serve"}
    figures_out = {}
    for key in tool:
        for field, unit in units.items():
            if field.startswith("stunnel") and not key.endswith("_tls"):
                continue
            if values(key, field):
                figures_out[f"{key}_{field}"] = figure(med(key, field), unit, tool[key],
                                                       runs=[r[key].get(field) for r in out["runs"] if key in r])

    def per_run_ratio(ka, kb, field):
        v = [r[ka][field] / r[kb][field] for r in out["runs"]
             if ka in r and kb in r and r[ka].get(field) is not None and r[kb].get(field)]
        return statistics.median(v) if v else None

    ratios = {
        "quintet_over_icecast2_tls_cpu": per_run_ratio("quintet_tls", "icecast2_tls", "cpu_mean"),
        "quintet_over_icecast2_tls_rss_max": per_run_ratio("quintet_tls", "icecast2_tls", "rss_max_mb"),
        "quintet_over_icecast2_plain_cpu": per_run_ratio("quintet", "icecast2", "cpu_mean"),
        "quintet_over_icecast2_plain_rss_max": per_run_ratio("quintet", "icecast2", "rss_max_mb"),
        "quintet_tls_over_plain_cpu": per_run_ratio("quintet_tls", "quintet", "cpu_mean"),
        "icecast2_tls_over_plain_cpu": per_run_ratio("icecast2_tls", "icecast2", "cpu_mean"),
        "quintet_tls_over_plain_rss_max": per_run_ratio("quintet_tls", "quintet", "rss_max_mb"),
        "icecast2_tls_over_plain_rss_max": per_run_ratio("icecast2_tls", "icecast2", "rss_max_mb"),
        "quintet_tls_listeners_served_fraction": min(
            (r["quintet_tls"]["established"] - r["quintet_tls"]["dropped"] - r["quintet_tls"]["below_95"]) / a.n
            for r in out["runs"]),
    }
    ratios = {k: v for k, v in ratios.items() if v is not None}
    bench_result.write("radio-tls", parameters={"listeners": a.n, "seconds": a.t, "runs": a.runs,
                                                "client_procs": a.procs,
                                                "tls_client": "stunnel4 (client mode) in front of listeners.py"
                                                if a.tls_client == "stunnel" else
                                                "listeners.py over TLS (scripts/bench-radio.d/tls_listeners.py)",
                                                "suite": a.suite, "plain_pair": not a.no_plain,
                                                "source": "plain HTTP to both servers"},
                       figures=figures_out, ratios=ratios,
                       details={"all_targets_met": out["all_targets_met"],
                                "tls_negotiated": {k: out["runs"][0][k]["tls"] for k in ("icecast2_tls", "quintet_tls")},
                                "targets": [r["targets"] for r in out["runs"]]})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("-t", type=float, required=True)
    ap.add_argument("-n", type=int, required=True)
    ap.add_argument("--json")
    ap.add_argument("--procs", type=int)
    ap.add_argument("--no-result", action="store_true")
    ap.add_argument("--tls", action="store_true")
    ap.add_argument("--suite", default="TLS_AES_128_GCM_SHA256")
    ap.add_argument("--no-plain", action="store_true")
    ap.add_argument("--tls-client", choices=("own", "stunnel"), default="own")
    a = ap.parse_args()
    if a.tls:
        return main_tls(a)
    out = {"listeners": a.n, "seconds": a.t, "runs": []}
    all_met = True
    for r in range(1, a.runs + 1):
        try:
            ice = figures(a.results, "icecast2", r, a.t)
            q = figures(a.results, "quintet", r, a.t)
        except (OSError, ValueError, KeyError) as e:
            print(f"run {r}: results incomplete ({e})", file=sys.stderr)
            return 1
        tg = targets(ice, q, a.n)
        all_met = all_met and all(ok for _, ok in tg)
        print(f"\nRun {r}: {a.n} ICY listeners, {a.t:g} s after the ramp, 128 kbps MP3 source\n")
        print(table(ice, q))
        print()
        for label, ok in tg:
            print(f"  [{'met' if ok else 'NOT met'}] {label}")
        out["runs"].append({"icecast2": ice, "quintet": q,
                            "targets": [{"target": l, "met": ok} for l, ok in tg]})
    out["all_targets_met"] = all_met
    print(f"\nAll targets met in every run: {'yes' if all_met else 'no'}")
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(out, fh, indent=1)
    if not a.no_result:
        write_result(out, a)
    return 0


def write_result(out, a):
    """Benchmarks/results/radio-<UTC time>.json: medians over the runs, per server."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import bench_result
    from bench_result import figure

    def med(server, key):
        vals = [r[server][key] for r in out["runs"] if r[server].get(key) is not None]
        return statistics.median(vals) if vals else None

    units = {"cpu_mean": "% of one core (steady window mean)", "cpu_max": "% of one core",
             "rss_max_mb": "MB", "rss_idle_mb": "MB", "ttfb_p50_ms": "ms", "ttfb_p95_ms": "ms",
             "kbps_min": "kbps", "kbps_median": "kbps", "established": "listeners", "failed": "listeners",
             "dropped": "listeners", "below_95": "listeners", "client_cpu": "% of one core",
             "machine_busy": "% (2 cores = 200)"}
    tool = {"icecast2": "icecast2 (Debian)", "quintet": "quintet serve"}
    figures = {}
    for server in SERVERS:
        for key, unit in units.items():
            figures[f"{server}_{key}"] = figure(med(server, key), unit, tool[server],
                                                runs=[r[server].get(key) for r in out["runs"]])
    ratios = {}
    q_cpu, i_cpu = med("quintet", "cpu_mean"), med("icecast2", "cpu_mean")
    if q_cpu is not None and i_cpu:
        ratios["quintet_over_icecast2_cpu"] = statistics.median(
            r["quintet"]["cpu_mean"] / r["icecast2"]["cpu_mean"] for r in out["runs"]
            if r["quintet"]["cpu_mean"] is not None and r["icecast2"]["cpu_mean"])
    if med("quintet", "ttfb_p50_ms") is not None and med("icecast2", "ttfb_p50_ms"):
        ratios["quintet_over_icecast2_ttfb_p50"] = med("quintet", "ttfb_p50_ms") / med("icecast2", "ttfb_p50_ms")
    if med("quintet", "rss_max_mb") is not None:
        ratios["quintet_rss_max_over_100mb"] = max(r["quintet"]["rss_max_mb"] for r in out["runs"]) / 100.0
    if med("quintet", "ttfb_p50_ms") is not None:
        ratios["quintet_ttfb_p50_over_200ms"] = max(r["quintet"]["ttfb_p50_ms"] for r in out["runs"]) / 200.0
    ratios["quintet_listeners_served_fraction"] = min(
        (r["quintet"]["established"] - r["quintet"]["dropped"] - r["quintet"]["below_95"]) / a.n for r in out["runs"])
    bench_result.write("radio", parameters={"listeners": a.n, "seconds": a.t, "runs": a.runs, "client_procs": a.procs},
                       figures=figures, ratios=ratios,
                       details={"all_targets_met": out["all_targets_met"],
                                "targets": [r["targets"] for r in out["runs"]]})


if __name__ == "__main__":
    sys.exit(main())
