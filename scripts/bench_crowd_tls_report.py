#!/usr/bin/env python3
"""The table of scripts/bench-crowd-tls: the crowd's 200 m search over HTTP and HTTPS, one run.

Usage: bench_crowd_tls_report.py RESULTS_DIR [--json FILE] [--no-result]

RESULTS_DIR holds meta.json and, per variant v (plain, tls) and round r: v-r-<measurement>.wrk
(wrk's output with the Lua scripts' line "BENCH {json}", latencies in µs) and v-r-<measurement>.cpu
(the server's CPU seconds before and after). Measurements: search-200 (1 connection, kept
alive), search-200-cN (N connections), search-200-close (1 connection, `Connection: close`: a
connection, and over HTTPS a handshake, per request). The table gives the median over the rounds
of each figure, HTTP and HTTPS side by side, and HTTPS ÷ HTTP; then every round. Writes
Benchmarks/results/crowd-tls-<UTC time>.json (scripts/bench_result.py) unless --no-result.
"""
import argparse
import json
import os
import re
import statistics
import sys

VARIANTS = ("plain", "tls")


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


def measurement(d, name):
    text = read(os.path.join(d, name + ".wrk"))
    if text is None:
        return None
    m = re.search(r"^BENCH (\{.*\})$", text, re.M)
    if not m:
        raise ValueError(f"{name}.wrk has no BENCH line")
    b = json.loads(m.group(1))
    rate = b["requests"] / (b["duration_us"] / 1e6) if b["duration_us"] else None
    out = {"requests": b["requests"], "rate": rate, "p50_ms": b["p50_us"] / 1000,
           "p90_ms": b["p90_us"] / 1000, "p99_ms": b["p99_us"] / 1000, "max_ms": b["max_us"] / 1000,
           "mean_locations": b["mean_locations"] if b.get("counting") else None,
           "failed": b["non200"] + b["socket_errors"] + b["status_errors"]}
    cpu = read(os.path.join(d, name + ".cpu"))
    if cpu:
        marks = {ln.split()[0]: float(ln.split()[1]) for ln in cpu.strip().splitlines()}
        if "begin" in marks and "end" in marks and b["requests"]:
            out["server_cpu_s"] = marks["end"] - marks["begin"]
            out["cpu_ms_per_request"] = out["server_cpu_s"] * 1000 / b["requests"]
    return out


def fmt(v, spec="{:.2f}"):
    return "–" if v is None else spec.format(v)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    ap.add_argument("--json")
    ap.add_argument("--no-result", action="store_true")
    a = ap.parse_args()
    meta = json.loads(read(os.path.join(a.results, "meta.json")))
    n, rounds = meta["connections"], meta["rounds"]
    kinds = [("search-200", "200 m search, 1 connection (kept alive)"),
             (f"search-200-c{n}", f"200 m search, {n} connections"),
             ("search-200-close", "200 m search, 1 connection, a new connection per request")]
    data = {}  # (variant, kind) -> [per round]
    for v in VARIANTS:
        for kind, _ in kinds:
            rows = []
            for r in range(1, rounds + 1):
                m = measurement(a.results, f"{v}-{r}-{kind}")
                if m is None:
                    print(f"bench-crowd-tls: {v}-{r}-{kind}.wrk missing", file=sys.stderr)
                    return 1
                rows.append(m)
            data[(v, kind)] = rows

    def med(v, kind, key):
        vals = [m[key] for m in data[(v, kind)] if m.get(key) is not None]
        return statistics.median(vals) if vals else None

    fields = [("p50_ms", "p50 ms", "{:.3f}"), ("p99_ms", "p99 ms", "{:.3f}"), ("rate", "requests/s", "{:.0f}"),
              ("cpu_ms_per_request", "server CPU ms per request", "{:.3f}")]
    negotiated = (read(os.path.join(a.results, "tls.negotiated")) or "").strip()
    print(f"\nThe crowd's 200 m search over HTTP and HTTPS: {meta['devices']:,} devices, "
          f"{meta['seconds']} s per measurement ({meta.get('close_seconds')} s with a new connection per request), "
          f"{rounds} round(s) in alternating order; TLS: {negotiated or '?'}\n")
    lines = ["| measurement | figure | HTTP | HTTPS | HTTPS ÷ HTTP |", "|---|---|---:|---:|---:|"]
    table = {}
    for kind, label in kinds:
        for key, flabel, spec in fields:
            if kind == "search-200-close" and key in ("p50_ms", "p99_ms"):
                continue  # wrk's latency starts after the handshake: the rate and CPU tell it
            p, t = med("plain", kind, key), med("tls", kind, key)
            ratio = t / p if p and t is not None else None
            table[f"{kind}:{key}"] = {"http": p, "https": t, "https_over_http": ratio}
            lines.append(f"| {label} | {flabel} | {fmt(p, spec)} | {fmt(t, spec)} | {fmt(ratio)} |")
    print("\n".join(lines))
    print("\nEvery round (HTTP / HTTPS):")
    for kind, label in kinds:
        for r in range(rounds):
            p, t = data[("plain", kind)][r], data[("tls", kind)][r]
            print(f"  round {r + 1}, {label}: p50 {fmt(p['p50_ms'], '{:.3f}')} / {fmt(t['p50_ms'], '{:.3f}')} ms, "
                  f"p99 {fmt(p['p99_ms'], '{:.3f}')} / {fmt(t['p99_ms'], '{:.3f}')} ms, "
                  f"{fmt(p['rate'], '{:.0f}')} / {fmt(t['rate'], '{:.0f}')} req/s, "
                  f"CPU {fmt(p.get('cpu_ms_per_request'), '{:.3f}')} / {fmt(t.get('cpu_ms_per_request'), '{:.3f}')} ms/request")
    locs = [m["mean_locations"] for v in VARIANTS for m in data[(v, "search-200")] if m["mean_locations"] is not None]
    if locs:
        print(f"\nLocations per 200 m answer (1 connection, counted): {min(locs):.1f}–{max(locs):.1f}")
    load_end = (read(os.path.join(a.results, "loadavg_end")) or "").strip()
    print(f"Load average: {meta.get('loadavg_start')} at the start, {load_end} at the end")
    out = {"meta": meta, "tls": negotiated, "table": table,
           "rounds": {f"{v}:{kind}": data[(v, kind)] for v in VARIANTS for kind, _ in kinds}}
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(out, fh, indent=1)
    if not a.no_result:
        write_result(out, meta, data, kinds, med, negotiated)
    return 0


def write_result(out, meta, data, kinds, med, negotiated):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import bench_result
    from bench_result import figure

    units = {"p50_ms": "ms", "p99_ms": "ms", "rate": "requests/s", "cpu_ms_per_request": "server CPU ms/request",
             "mean_locations": "locations/answer"}
    tool = {"plain": "quintet serve, HTTP", "tls": "quintet serve, HTTPS"}
    figures = {}
    for v in VARIANTS:
        for kind, _ in kinds:
            for key, unit in units.items():
                vals = [m.get(key) for m in data[(v, kind)]]
                if all(x is None for x in vals):
                    continue
                name = f"{'https' if v == 'tls' else 'http'}_{kind.replace('-', '_')}_{key}"
                figures[name] = figure(med(v, kind, key), unit, tool[v], runs=vals)
    ratios = {}
    for kind, _ in kinds:
        for key in ("p50_ms", "p99_ms", "rate", "cpu_ms_per_request"):
            if kind == "search-200-close" and key in ("p50_ms", "p99_ms"):
                continue
            p, t = med("plain", kind, key), med("tls", kind, key)
            if p and t is not None:
                ratios[f"https_over_http_{kind.replace('-', '_')}_{key}"] = t / p
    bench_result.write("crowd-tls",
                       parameters={"devices": meta["devices"], "seconds": meta["seconds"],
                                   "connections": meta["connections"], "rounds": meta["rounds"]},
                       figures=figures, ratios=ratios,
                       details={"tls_negotiated": negotiated, "table": out["table"]})


if __name__ == "__main__":
    sys.exit(main())
