#!/usr/bin/env python3
"""Durability probe of scripts/bench-crowd: nothing acknowledged is lost on kill -9.

  durability.py send URL --out FILE [--threads 8] [--lat 45.6 --lon 9.19] [--seconds 30]
      posts reports of new device tokens (dur-<pid>-<thread>-<n>), each at its own position
      (a grid 25 m apart, north of the city, so every new device founds its own location),
      on keep-alive connections, until the server stops answering (it is killed meanwhile)
      or --seconds pass; writes every report that was answered 200 to FILE (JSON).
  durability.py check URL FILE
      after the restart: for every acknowledged report, a search of 15 m at its exact position
      must list a location at distance 0 holding at least one person (with --crowd-min-group 1);
      prints the figures as one line "DURABILITY {json}" and exits 1 when one is missing.
"""
import argparse
import http.client
import json
import math
import os
import sys
import threading
import time
import urllib.parse

R = 6371008.8


def position(lat0, lon0, index):
    # A grid of 200 per row, 25 m apart (more than twice 10 m, so no joins).
    row, col = divmod(index, 200)
    lat = lat0 + row * 25 / R * 180 / math.pi
    lon = lon0 + col * 25 / (R * math.cos(math.radians(lat0))) * 180 / math.pi
    return lat, lon


def send(args):
    url = urllib.parse.urlsplit(args.url)
    acked, sent, errors = [], [0], []
    lock = threading.Lock()
    counter = [0]
    stop = time.monotonic() + args.seconds

    def worker(t):
        conn = http.client.HTTPConnection(url.hostname, url.port, timeout=5)
        n = 0
        while time.monotonic() < stop:
            with lock:
                index = counter[0]
                counter[0] += 1
            lat, lon = position(args.lat, args.lon, index)
            token = f"dur-{os.getpid()}-{t}-{n}"
            n += 1
            body = json.dumps({"device": token, "lat": lat, "lon": lon, "radius": 15})
            try:
                conn.request("POST", "/api/crowd/reports", body, {"Content-Type": "application/json"})
                resp = conn.getresponse()
                data = resp.read()
                with lock:
                    sent[0] += 1
                    if resp.status == 200:
                        acked.append({"device": token, "lat": lat, "lon": lon,
                                      "location": json.loads(data)["location"]["id"]})
                    else:
                        errors.append(resp.status)
            except (OSError, http.client.HTTPException) as e:
                with lock:
                    sent[0] += 1
                    errors.append(type(e).__name__)
                return  # the server is gone
    threads = [threading.Thread(target=worker, args=(t,)) for t in range(args.threads)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    with open(args.out, "w") as f:
        json.dump({"sent": sent[0], "acknowledged": acked, "errors": errors}, f)
    print(f"durability: {sent[0]} reports sent, {len(acked)} acknowledged, {len(errors)} unanswered or not 200")


def check(args):
    url = urllib.parse.urlsplit(args.url)
    with open(args.file) as f:
        data = json.load(f)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=10)
    missing = []
    for a in data["acknowledged"]:
        q = urllib.parse.urlencode({"lat": repr(a["lat"]), "lon": repr(a["lon"]), "radius": 15,
                                    "min": 1, "max": 100})
        conn.request("GET", "/api/crowd/locations?" + q)
        resp = conn.getresponse()
        body = json.loads(resp.read())
        here = [l for l in body.get("locations", []) if l["distance_m"] == 0 and l["people"] >= 1]
        if resp.status != 200 or not here:
            missing.append(a["device"])
    out = {"sent": data["sent"], "acknowledged": len(data["acknowledged"]), "missing": len(missing),
           "unanswered": len(data["errors"])}
    print("DURABILITY " + json.dumps(out))
    if missing:
        print(f"durability: {len(missing)} acknowledged reports lost, e.g. {missing[:5]}", file=sys.stderr)
        sys.exit(1)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("send")
    s.add_argument("url")
    s.add_argument("--out", required=True)
    s.add_argument("--threads", type=int, default=8)
    s.add_argument("--lat", type=float, default=45.6)
    s.add_argument("--lon", type=float, default=9.19)
    s.add_argument("--seconds", type=float, default=30)
    c = sub.add_parser("check")
    c.add_argument("url")
    c.add_argument("file")
    args = p.parse_args()
    send(args) if args.cmd == "send" else check(args)


if __name__ == "__main__":
    main()
