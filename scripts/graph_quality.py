#!/usr/bin/env python3
"""Neighbourhood preservation of a graph layout: the one quality figure of `make bench-graph`.

    python3 scripts/graph_quality.py GRAPH POSITIONS [--json]

GRAPH is a quintet graph file (`quintet library graph export|synthetic`); POSITIONS has one
"x y" line per node in node order (`quintet library graph layout --out`, or sfdp's positions
as scripts/bench-graph writes them). For every node of degree k > 0: the share of its k graph
neighbours among its k nearest other nodes in the layout; the figure is the mean over those
nodes (1 = every node's nearest nodes are exactly its neighbours). Repeated edges and loops
count once / not at all. Nearest nodes by a scipy KD-tree when scipy is there, else by a grid
in numpy (same answer; ties between equal distances broken by node index in both).
"""
from __future__ import annotations

import json
import sys

import numpy as np


def read_graph(path: str) -> tuple[int, np.ndarray]:
    with open(path) as f:
        if f.readline().split() != ["quintet-graph", "1"]:
            sys.exit(f"{path}: not a quintet graph file")
        n, e = map(int, f.readline().split())
        for _ in range(n):
            f.readline()
        edges = np.loadtxt(f, dtype=np.int64, ndmin=2, max_rows=e) if e else np.zeros((0, 3), np.int64)
    return n, edges[:, :2]


def neighbour_sets(n: int, edges: np.ndarray) -> list[np.ndarray]:
    a, b = edges[:, 0], edges[:, 1]
    keep = a != b
    a, b = a[keep], b[keep]
    pairs = np.unique(np.stack([np.minimum(a, b), np.maximum(a, b)], axis=1), axis=0)
    src = np.concatenate([pairs[:, 0], pairs[:, 1]])
    dst = np.concatenate([pairs[:, 1], pairs[:, 0]])
    order = np.argsort(src, kind="stable")
    src, dst = src[order], dst[order]
    bounds = np.searchsorted(src, np.arange(n + 1))
    return [dst[bounds[i]:bounds[i + 1]] for i in range(n)]


def preservation(points: np.ndarray, neighbours: list[np.ndarray]) -> float:
    n = len(points)
    degrees = np.array([len(x) for x in neighbours])
    kmax = int(degrees.max()) if n else 0
    if kmax == 0:
        return float("nan")
    try:
        from scipy.spatial import cKDTree
        tree = cKDTree(points)

        def nearest(idx: np.ndarray, k: int) -> np.ndarray:
            _, found = tree.query(points[idx], k=min(k + 1, n))
            return found.reshape(len(idx), -1)
    except ImportError:  # pragma: no cover - the bench venv has scipy
        def nearest(idx: np.ndarray, k: int) -> np.ndarray:
            d = ((points[idx, None, :] - points[None, :, :]) ** 2).sum(-1)
            return np.argsort(d, axis=1, kind="stable")[:, :k + 1]
    total, counted = 0.0, 0
    # Nodes grouped by degree, so each query asks for exactly k + 1 nearest (the node itself among them).
    for k in np.unique(degrees[degrees > 0]):
        idx = np.nonzero(degrees == k)[0]
        for lo in range(0, len(idx), 4096):
            chunk = idx[lo:lo + 4096]
            found = nearest(chunk, int(k))
            for row, i in enumerate(chunk):
                near = [j for j in found[row] if j != i][:k]
                total += len(np.intersect1d(near, neighbours[i], assume_unique=False)) / k
                counted += 1
    return total / counted


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 2:
        sys.exit(__doc__)
    n, edges = read_graph(args[0])
    points = np.loadtxt(args[1], dtype=np.float64, ndmin=2)
    if points.shape != (n, 2):
        sys.exit(f"{args[1]}: {points.shape[0]} positions for {n} nodes")
    if not np.isfinite(points).all():
        sys.exit(f"{args[1]}: positions that are not finite numbers")
    q = preservation(points, neighbour_sets(n, edges))
    print(json.dumps({"nodes": n, "edges": int(len(edges)), "neighbourhood_preservation": q}) if "--json" in sys.argv else f"{q:.4f}")


if __name__ == "__main__":
    main()
