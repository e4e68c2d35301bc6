#!/usr/bin/env python3
"""Parse a podcast feed with feedparser (PyPI) and fail on any error or missing podcast field.

Usage: scripts/check-feed.py FEED.xml|URL [--episodes N]

Needs feedparser: python3 -m venv /tmp/venv && /tmp/venv/bin/pip install feedparser, then run
this script with /tmp/venv/bin/python. The Radio unit tests write their hostile-text feed to
$QUINTET_FEED_OUT when it is set:
  QUINTET_FEED_OUT=/tmp/feed.xml swift test --skip-build --filter PodcastFeedTests
  /tmp/venv/bin/python scripts/check-feed.py /tmp/feed.xml --episodes 2
"""
import argparse
import sys

import feedparser


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("feed")
    ap.add_argument("--episodes", type=int, default=None, help="expected number of items")
    args = ap.parse_args()
    d = feedparser.parse(args.feed)
    problems = []
    if d.bozo:
        problems.append(f"not well-formed: {d.bozo_exception!r}")
    if d.get("version") != "rss20":
        problems.append(f"version {d.get('version')!r}, expected rss20")
    feed = d.feed
    for key in ("title", "link", "author", "language", "itunes_explicit", "podcast_guid"):
        if key not in feed:
            problems.append(f"channel has no {key}")
    if args.episodes is not None and len(d.entries) != args.episodes:
        problems.append(f"{len(d.entries)} items, expected {args.episodes}")
    for i, e in enumerate(d.entries):
        where = f"item {i} ({e.get('id', '?')})"
        if not e.get("id") or e.get("guidislink"):
            problems.append(f"{where}: guid missing or a permalink")
        if not e.get("published_parsed"):
            problems.append(f"{where}: pubDate missing or unparsable")
        duration = e.get("itunes_duration", "")
        parts = duration.split(":")
        if len(parts) != 3 or not all(p.isdigit() for p in parts):
            problems.append(f"{where}: itunes:duration {duration!r} is not H:MM:SS")
        enclosures = [l for l in e.get("links", []) if l.get("rel") == "enclosure"]
        if len(enclosures) != 1:
            problems.append(f"{where}: {len(enclosures)} enclosures")
        else:
            enc = enclosures[0]
            if not enc.get("length", "").isdigit() or not enc.get("type"):
                problems.append(f"{where}: enclosure without length or type")
    print(f"{args.feed}: {feed.get('title', '')!r}, {len(d.entries)} items, "
          f"podcast:guid {feed.get('podcast_guid', '-')}")
    for p in problems:
        print("FAIL:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
